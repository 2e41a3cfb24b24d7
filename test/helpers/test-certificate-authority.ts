/**
 * A throwaway certificate authority for tests that must answer HTTPS for a public host name (a cloud's
 * token endpoint) on 127.0.0.1: a CA and one server certificate for the given names, made by the
 * `openssl` command line in a temporary directory. A child process trusts the CA through
 * NODE_EXTRA_CA_CERTS (https://nodejs.org/api/cli.html#node_extra_ca_certsfile).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export type TestCertificates = {
  /** The CA certificate's PEM file, for NODE_EXTRA_CA_CERTS. */
  caFile: string;
  /** The server certificate (for every name given) and its key, as PEM. */
  cert: string;
  key: string;
  remove(): void;
};

/** Whether the `openssl` command line is there (tests that need it skip, saying so, when it is not). */
export function opensslAvailable(): boolean {
  try {
    execFileSync('openssl', ['version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

export function createTestCertificates(hostNames: readonly string[]): TestCertificates {
  const directory = mkdtempSync(path.join(tmpdir(), 'interlingua-ca-'));
  const file = (name: string) => path.join(directory, name);
  const openssl = (...options: string[]) => execFileSync('openssl', options, { stdio: 'pipe' });
  openssl(
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-days',
    '2',
    '-subj',
    '/CN=Interlingua test CA',
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=critical,keyCertSign',
    '-keyout',
    file('ca.key'),
    '-out',
    file('ca.pem'),
  );
  openssl(
    'req',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-subj',
    `/CN=${hostNames[0]}`,
    '-keyout',
    file('server.key'),
    '-out',
    file('server.csr'),
  );
  writeFileSync(file('server.ext'), `subjectAltName=${hostNames.map((name) => `DNS:${name}`).join(',')}\n`);
  openssl(
    'x509',
    '-req',
    '-in',
    file('server.csr'),
    '-CA',
    file('ca.pem'),
    '-CAkey',
    file('ca.key'),
    '-CAcreateserial',
    '-days',
    '2',
    '-extfile',
    file('server.ext'),
    '-out',
    file('server.pem'),
  );
  return {
    caFile: file('ca.pem'),
    cert: readFileSync(file('server.pem'), 'utf8'),
    key: readFileSync(file('server.key'), 'utf8'),
    remove: () => rmSync(directory, { recursive: true, force: true }),
  };
}
