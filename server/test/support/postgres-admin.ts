import { Client } from 'pg';

/** One connection to the test cluster, for creating and dropping databases; closed after `work`. */
export async function withPostgres<T>(url: string, work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}
