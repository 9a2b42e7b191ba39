import { StatusPage } from './status-page';

export default function NotFoundPage() {
  return <StatusPage status="notFound" />;
}
