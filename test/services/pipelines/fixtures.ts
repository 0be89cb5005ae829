/** A tiny HTTP file server on 127.0.0.1 for url_input connectors. */
import { createServer, type Server } from 'node:http';

export interface FileServer {
  url: string;
  hits: Map<string, number>;
  release(): void;
  close(): Promise<void>;
}

/** Paths under /hold/ are answered only when release() is called (a slow source). */
export async function serveFiles(files: Record<string, string>): Promise<FileServer> {
  const hits = new Map<string, number>();
  const held: (() => void)[] = [];
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    hits.set(path, (hits.get(path) ?? 0) + 1);
    if (path.startsWith('/hold/')) {
      held.push(() => res.writeHead(200).end(files[path] ?? ''));
      return;
    }
    const body = files[path];
    if (body === undefined) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const addr = server.address();
  const port = typeof addr === 'object' && addr ? addr.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    hits,
    release: () => held.splice(0).forEach((f) => f()),
    close: () =>
      new Promise((r) => {
        held.splice(0).forEach((f) => f());
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

export const TUTORIAL_DATA = {
  '/vendor.json': [
    { insert: { id: 1, name: 'Gravitech Dynamics', address: '222 Graviton Lane' } },
    { insert: { id: 2, name: 'HyperDrive Innovations', address: '456 Warp Way' } },
    { insert: { id: 3, name: 'DarkMatter Devices', address: '333 Singularity Street' } },
  ]
    .map((x) => JSON.stringify(x))
    .join('\n'),
  '/part.json': [{ insert: { id: 1, name: 'Flux Capacitor' } }, { insert: { id: 2, name: 'Warp Core' } }, { insert: { id: 3, name: 'Kyber Crystal' } }].map((x) => JSON.stringify(x)).join('\n'),
  '/price.json': [{ insert: { part: 1, vendor: 2, price: 10000 } }, { insert: { part: 2, vendor: 1, price: 15000 } }, { insert: { part: 3, vendor: 3, price: 9000 } }]
    .map((x) => JSON.stringify(x))
    .join('\n'),
};

export function tutorialSql(base: string): string {
  const conn = (file: string) => `WITH ('connectors' = '[{\n    "transport": {\n        "name": "url_input", "config": {"path": "${base}/${file}"}\n    },\n    "format": { "name": "json" }\n}]')`;
  return `CREATE TABLE vendor (
    id BIGINT NOT NULL PRIMARY KEY,
    name VARCHAR,
    address VARCHAR
)  ${conn('vendor.json')};

CREATE TABLE part (
    id bigint NOT NULL PRIMARY KEY,
    name VARCHAR
) ${conn('part.json')};

CREATE TABLE price (
    part BIGINT NOT NULL,
    vendor BIGINT NOT NULL,
    price DECIMAL
)
${conn('price.json')};

CREATE VIEW low_price
    (part, price)
    AS
    SELECT
        price.part AS part,
        MIN(price.price) AS price
    FROM price
    GROUP BY price.part;

CREATE MATERIALIZED VIEW preferred_vendor
    (part_id, part_name, vendor_id, vendor_name, price)
    AS
    SELECT
        part.id AS part_id,
        part.name AS part_name,
        vendor.id AS vendor_id,
        vendor.name AS vendor_name,
        price.price AS price
    FROM
        price, part, vendor, low_price
    WHERE
        price.price = low_price.price AND
        price.part = low_price.part AND
        part.id = price.part AND
        vendor.id = price.vendor;
`;
}
