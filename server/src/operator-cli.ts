import { ConfigError, loadConfig } from './config';
import { DataDirLockedError } from './db/data-dir-lock';
import { openDatabase, type OpenedDatabase } from './db/open-database';
import { EMAIL_MAX_LENGTH, EMAIL_PATTERN } from './lib/email-address';
import { ENROLMENT_LINK_HOURS, enrolmentLink, inviteOperator } from './operators/enrolment';
import { disableOperatorByEmail, operatorListing } from './operators/operator-accounts';

// `npm run operator -- add EMAIL | list | disable EMAIL` (scripts/operator.mjs runs this file from the server's
// build). It opens the database the server uses, with the server's environment (DATA_DIR or DATABASE_URL).

const USAGE = `Usage: npm run operator -- <command>
  add EMAIL       invite an operator (or send an operator a new enrolment link); prints the one-time link
  list            the operators and whether each is invited, enrolled or disabled
  disable EMAIL   stop an operator from signing in, ending their sessions at once`;

interface Output {
  out(line: string): void;
  err(line: string): void;
}

function emailArgument(value: string | undefined): string | null {
  const email = value?.trim().toLowerCase() ?? '';
  return email.length <= EMAIL_MAX_LENGTH && EMAIL_PATTERN.test(email) ? email : null;
}

/** Runs one command; resolves with the process's exit code (0 done, 1 failed, 2 wrong usage). */
export async function runOperatorCommand(args: string[], env: NodeJS.ProcessEnv, io: Output): Promise<number> {
  const [command, argument] = args;
  const email = emailArgument(argument);
  const needsEmail = command === 'add' || command === 'disable';
  if (!(needsEmail || command === 'list') || (needsEmail && !email) || args.length > (needsEmail ? 2 : 1)) {
    io.err(needsEmail && !email ? `Not an email address: ${argument ?? '(none)'}\n${USAGE}` : USAGE);
    return 2;
  }

  let opened: OpenedDatabase;
  let publicUrl: string;
  try {
    const config = loadConfig(env);
    publicUrl = config.publicUrl;
    // No waiting for the lock: a running server holds it for as long as it runs.
    opened = await openDatabase(
      { dataDir: config.dataDir, databaseUrl: config.databaseUrl, lockWaitMs: 0 },
      { info: () => undefined, error: (_object, message) => io.err(message) },
    );
  } catch (error) {
    if (error instanceof DataDirLockedError) {
      io.err(
        'The embedded database is in use by a running Kabari server. Stop the server first, then run this ' +
          'command again (with PostgreSQL, through DATABASE_URL, it runs at any time).',
      );
      return 1;
    }
    if (error instanceof ConfigError) {
      io.err(error.message);
      return 1;
    }
    throw error;
  }

  try {
    if (command === 'add') {
      const invited = await inviteOperator(opened.db, email!);
      io.out(
        `${invited.reinvited ? 'New enrolment link for' : 'Invited'} ${email}. ` +
          `Their one-time enrolment link, valid for ${ENROLMENT_LINK_HOURS} hours:`,
      );
      io.out(`  ${enrolmentLink(publicUrl, invited.token)}`);
      io.out('Give it to them privately: whoever opens it first becomes this operator.');
      return 0;
    }
    if (command === 'disable') {
      if (!(await disableOperatorByEmail(opened.db, email!))) {
        io.err(`No operator has the email ${email}.`);
        return 1;
      }
      io.out(`Disabled ${email}: their sessions have ended, and they cannot sign in.`);
      return 0;
    }
    const operators = await operatorListing(opened.db);
    if (operators.length === 0) io.out('No operators yet: add one with `npm run operator -- add EMAIL`.');
    for (const operator of operators) {
      io.out(`${operator.email}\t${operator.state}\tsince ${operator.createdAt.toISOString().slice(0, 10)}`);
    }
    return 0;
  } finally {
    await opened.client.close();
  }
}

if (require.main === module) {
  runOperatorCommand(process.argv.slice(2), process.env, {
    out: (line) => process.stdout.write(`${line}\n`),
    err: (line) => process.stderr.write(`${line}\n`),
  }).then(
    (code) => process.exit(code),
    (error: unknown) => {
      process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
      process.exit(1);
    },
  );
}
