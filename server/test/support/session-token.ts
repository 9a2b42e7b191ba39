/**
 * The session token a sign-in answer set as the `token` cookie: the body no longer carries it, and a test that
 * is not a browser sends it back as the cookie or the Authorization header.
 */
export function sessionTokenOf(response: { cookies: Array<{ name: string; value: string }> }): string {
  const cookie = response.cookies.find((candidate) => candidate.name === 'token');
  if (!cookie?.value) throw new Error('the answer set no session cookie');
  return cookie.value;
}
