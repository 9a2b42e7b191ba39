import type { ReactNode } from 'react';
import { Navigate, Route, Routes, useLocation } from '@kabari/shared/routing/router';
import { AntdScope } from '@kabari/shared/ui/antd-scope';
import { consolePages, useConsoleLocale } from '../lib/console-paths';
import { OperatorSessionProvider, useOperatorSession } from '../lib/operator-session';
import { AuditLogPage } from '../features/audit-log/audit-log-page';
import { ContactMessagesPage } from '../features/contact-messages/contact-messages-page';
import { EnrolPage } from '../features/enrol/enrol-page';
import { FailedMessagesPage } from '../features/failed-messages/failed-messages-page';
import { RefundsPage } from '../features/refunds/refunds-page';
import { ReportPage } from '../features/reports/report-page';
import { ReportsPage } from '../features/reports/reports-page';
import { SignInPage } from '../features/sign-in/sign-in-page';
import { SmsSpendPage } from '../features/sms-spend/sms-spend-page';
import { ConsoleLayout } from './console-layout';
import './operator-console.css';

/** A page for a signed-in operator: anyone else goes to sign-in, which comes back here afterwards. */
function Signed({ children }: { children: ReactNode }) {
  const { state } = useOperatorSession();
  const { pathTo } = useConsoleLocale();
  const { pathname, search } = useLocation();
  if (state.status === 'checking') return null;
  if (state.status === 'signed-out') {
    const next = new URLSearchParams({ next: `${pathname}${search}` });
    return <Navigate to={`${pathTo(consolePages.signIn)}?${next}`} replace state={{ ended: state.ended }} />;
  }
  return <>{children}</>;
}

/**
 * The operator's console, everything below /operator (and /id/operator): the host loads this remote on those routes
 * only, and this page routes within them.
 */
export default function OperatorConsole() {
  return (
    <AntdScope>
      <OperatorSessionProvider>
        <ConsoleLayout>
          <Routes>
            <Route path="sign-in" element={<SignInPage />} />
            <Route path="enrol" element={<EnrolPage />} />
            <Route
              index
              element={
                <Signed>
                  <ReportsPage />
                </Signed>
              }
            />
            <Route
              path="reports/:id"
              element={
                <Signed>
                  <ReportPage />
                </Signed>
              }
            />
            <Route
              path="refunds"
              element={
                <Signed>
                  <RefundsPage />
                </Signed>
              }
            />
            <Route
              path="contact-messages"
              element={
                <Signed>
                  <ContactMessagesPage />
                </Signed>
              }
            />
            <Route
              path="failed-messages"
              element={
                <Signed>
                  <FailedMessagesPage />
                </Signed>
              }
            />
            <Route
              path="sms-spend"
              element={
                <Signed>
                  <SmsSpendPage />
                </Signed>
              }
            />
            <Route
              path="audit-log"
              element={
                <Signed>
                  <AuditLogPage />
                </Signed>
              }
            />
            <Route
              path="*"
              element={
                <Signed>
                  <ReportsPage />
                </Signed>
              }
            />
          </Routes>
        </ConsoleLayout>
      </OperatorSessionProvider>
    </AntdScope>
  );
}
