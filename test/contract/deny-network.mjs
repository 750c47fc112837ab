// Preloaded (`node --import`) into the linters that test/contract/openapi-lint.test.ts runs: any
// attempt to open a network connection or resolve a host name is written to the file named by
// DENY_NETWORK_LOG and then refused, so a tool that phones home (telemetry, update checks, remote
// rulesets) fails the test even where it swallows the error.
import { appendFileSync } from 'node:fs';
import dns from 'node:dns';
import net from 'node:net';

function refuse(what) {
  if (process.env.DENY_NETWORK_LOG) appendFileSync(process.env.DENY_NETWORK_LOG, `${what}\n`);
  throw new Error(`network access refused in this test: ${what}`);
}

const describe = (args) => {
  // net.connect passes its normalized arguments on as one array: [options, callback].
  const first = Array.isArray(args[0]) ? args[0][0] : args[0];
  if (typeof first === 'object' && first !== null)
    return `${first.host ?? first.path ?? ''}:${first.port ?? ''}`;
  return args.filter((a) => typeof a !== 'function').join(':');
};

net.Socket.prototype.connect = function connect(...args) {
  refuse(`connect ${describe(args)}`);
};
dns.lookup = (host) => refuse(`dns.lookup ${host}`);
dns.promises.lookup = async (host) => refuse(`dns.promises.lookup ${host}`);
dns.resolve = (host) => refuse(`dns.resolve ${host}`);
dns.promises.resolve = async (host) => refuse(`dns.promises.resolve ${host}`);
