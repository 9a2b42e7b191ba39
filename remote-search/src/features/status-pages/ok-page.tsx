import { StatusPage } from './status-page';

export default function OkPage() {
  return <StatusPage status="ok" />;
}
