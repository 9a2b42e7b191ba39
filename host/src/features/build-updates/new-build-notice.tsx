import Button from 'antd/es/button';

/** The toast that offers the new version; loaded with the first new build seen. */
export function NewBuildNotice({ text, action, onReload }: { text: string; action: string; onReload: () => void }) {
  return (
    <span className="new-build-notice">
      {text}{' '}
      <Button type="primary" size="small" onClick={onReload}>
        {action}
      </Button>
    </span>
  );
}
