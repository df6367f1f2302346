// The benchmark's second reference gateway (bench/gateway-vs-peer.sh, docs/benchmarks.md): the
// protocol subset of bench/peer/ws-gateway.js, written the way a Bun user would, on Bun.serve's
// WebSockets (uWebSockets underneath). Same frames (keys sorted, as the gateway sends them),
// same users file, same presence rules (devices, invisible, grace before offline), same limits,
// replies and close codes as the Node peer. What differs is Bun's way of fanning out: each user
// is a topic, a watcher subscribes to it (ws.subscribe), and a change is one server.publish of
// one encoded frame, which uWebSockets' TopicTree hands to every subscriber, coalescing what
// reaches one socket in one loop iteration. Not there: availability, digests, chat, the rate
// limit, Redis, the admin API.
// Bun's own defaults otherwise: a connection's output past 16 MiB is dropped (backpressureLimit;
// the Node peer buffers without bound, ours closes the connection past about 1.3 MiB).
//   bun bun-gateway.js --users FILE [--listen 127.0.0.1:PORT] [--grace-ms MS]
const args = Bun.argv.slice(2);
const option = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const [host, port] = option('--listen', '127.0.0.1:8765').split(':');
const graceMs = Number(option('--grace-ms', 5000));
const heartbeatMs = 25000;
const limits = { availability_interval_ms: 1000, frame_burst: 100, max_availability_friends: 0,
    max_frame_bytes: 65536, max_frames_per_second: 50, max_ids_per_request: 500, max_subscriptions: 2000 };
const rank = { offline: 0, away: 1, online: 2 };
const idPattern = /^[A-Za-z0-9._-]{1,64}$/;

// The users file: a friendship listed on either side is mutual; friends in file order.
const list = (await Bun.file(option('--users')).json()).users;
const users = new Map(), byToken = new Map(), order = new Map();
list.forEach((u, i) => {
    const user = { id: u.id, name: u.name || u.id, friends: new Set(), devices: new Set(),
        published: 'offline', seq: 0, lastSeen: null, grace: null };
    users.set(u.id, user); byToken.set(u.token, user); order.set(u.id, i);
});
for (const u of list) for (const f of u.friends || []) {
    if (users.has(f) && f !== u.id) { users.get(u.id).friends.add(f); users.get(f).friends.add(u.id); }
}
for (const user of users.values()) user.friendList = [...user.friends].sort((a, b) => order.get(a) - order.get(b));

const sorted = (o) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined).sort(([a], [b]) => (a < b ? -1 : 1)));
const entry = (u) => sorted({ id: u.id, last_seen: u.published === 'offline' && u.lastSeen ? u.lastSeen : undefined, seq: u.seq, status: u.published });
const aggregate = (u) => {
    let status = 'offline';
    for (const ws of u.devices) if (ws.data.status !== 'invisible' && rank[ws.data.status] > rank[status]) status = ws.data.status;
    return status;
};
// One encoding per change, published once to the user's topic: every watcher gets it.
function publish(u, status) {
    u.published = status; u.seq += 1;
    server.publish(u.id, JSON.stringify(sorted({ ...entry(u), type: 'presence' })));
}
// More available, or away by choice: at once. Less available otherwise: after the grace.
function update(u, wasVisible, byChoice) {
    const now = aggregate(u);
    if (wasVisible && now === 'offline') u.lastSeen = Date.now();
    clearTimeout(u.grace); u.grace = null;
    if (now === u.published) return;
    if (rank[now] > rank[u.published] || (byChoice && now === 'away')) return publish(u, now);
    u.grace = setTimeout(() => { u.grace = null; if (aggregate(u) !== u.published) publish(u, aggregate(u)); }, graceMs);
}

function onMessage(ws, data) {
    let m = null;
    try { m = typeof data === 'string' ? JSON.parse(data) : null; } catch { m = null; }
    const ref = m && typeof m.ref === 'string' ? m.ref : undefined;
    const reply = (o) => ws.send(JSON.stringify(sorted({ ...o, ref })));
    const error = (code, message) => reply({ code, message, type: 'error' });
    const u = ws.data.user;
    if (!u) {
        const user = m && m.type === 'hello' && typeof m.token === 'string' ? byToken.get(m.token) : undefined;
        const status = m && m.status !== undefined ? m.status : 'online';
        if (m && m.type === 'hello' && typeof m.protocol === 'number' && m.protocol !== 1) {
            error('unsupported_protocol', 'protocol 1 only'); return ws.close(4002, 'unsupported protocol');
        }
        if (!user || m.protocol !== 1 || !['online', 'away', 'invisible'].includes(status)) {
            error('unauthorized', 'bad hello'); return ws.close(4001, 'unauthorized');
        }
        clearTimeout(ws.data.helloTimer);
        ws.data.user = user; ws.data.status = status;
        const wasVisible = aggregate(user) !== 'offline';
        user.devices.add(ws);
        reply({ heartbeat_ms: heartbeatMs, limits, protocol: 1, type: 'welcome', user: { id: user.id, name: user.name } });
        return update(user, wasVisible, true);
    }
    if (!m || typeof m !== 'object' || typeof m.type !== 'string' || !m.type) return error('bad_request', 'not a request');
    switch (m.type) {
    case 'friends': {
        const offset = m.offset === undefined ? 0 : m.offset, limit = m.limit === undefined ? 500 : m.limit;
        if (!Number.isInteger(offset) || offset < 0 || !Number.isInteger(limit) || limit < 1 || limit > 1000) return error('bad_request', 'friends: bad offset or limit');
        const items = u.friendList.slice(offset, offset + limit).map((id) => ({ id, name: users.get(id).name }));
        return reply({ items, offset, total: u.friendList.length, type: 'friends' });
    }
    case 'subscribe':
    case 'unsubscribe': {
        if (!Array.isArray(m.ids) || !m.ids.every((id) => typeof id === 'string' && idPattern.test(id))) return error('bad_request', `${m.type}: bad ids`);
        if (m.ids.length > limits.max_ids_per_request) return error('too_many_ids', `${m.type}: too many ids`);
        // The topics are the subscriptions: Bun keeps them, only their count is kept here.
        if (m.type === 'unsubscribe') {
            for (const id of m.ids) if (ws.isSubscribed(id)) { ws.unsubscribe(id); ws.data.watching -= 1; }
            return reply({ type: 'ok' });
        }
        const ids = [...new Set(m.ids)], allowed = ids.filter((id) => u.friends.has(id));
        const added = allowed.filter((id) => !ws.isSubscribed(id));
        if (ws.data.watching + added.length > limits.max_subscriptions) return error('too_many_subscriptions', 'subscribe: too many subscriptions');
        for (const id of added) ws.subscribe(id);
        ws.data.watching += added.length;
        return reply({ denied: ids.filter((id) => !u.friends.has(id)), type: 'snapshot', users: allowed.map((id) => entry(users.get(id))) });
    }
    case 'set_status': {
        if (!['online', 'away', 'invisible'].includes(m.status)) return error('bad_request', 'set_status: bad status');
        const wasVisible = aggregate(u) !== 'offline';
        ws.data.status = m.status;
        update(u, wasVisible, true);
        return reply({ type: 'ok' });
    }
    case 'ping': return reply({ type: 'pong' });
    case 'hello': return error('bad_request', 'hello: already signed in');
    default: return error('unknown_type', `unknown type ${m.type}`);
    }
}

const clients = new Set(); // for the goodbye on SIGINT and SIGTERM only
const server = Bun.serve({
    hostname: host,
    port: Number(port),
    fetch(req, server) {
        if (server.upgrade(req, { data: { user: null, status: null, watching: 0, helloTimer: null } })) return undefined;
        return new Response('Upgrade Required', { status: 426 });
    },
    websocket: {
        perMessageDeflate: false,
        maxPayloadLength: limits.max_frame_bytes,
        // uWebSockets pings a connection silent for 24 s and drops it at 40 s (the Node peer
        // pings every 25 s and drops a connection silent for a whole interval: 25-50 s).
        idleTimeout: 40,
        sendPings: true,
        open(ws) {
            clients.add(ws);
            ws.data.helloTimer = setTimeout(() => ws.close(4008, 'no hello'), 5000);
        },
        message: onMessage,
        close(ws) {
            clients.delete(ws);
            clearTimeout(ws.data.helloTimer);
            // Bun drops the closed socket's topics itself.
            const u = ws.data.user;
            if (!u) return;
            const wasVisible = aggregate(u) !== 'offline';
            u.devices.delete(ws);
            update(u, wasVisible, false);
        },
    },
});
console.log(`presence peer (Bun ${Bun.version}, uWebSockets) listening on ws://${host}:${server.port}/ (${users.size} users)`);
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => { for (const ws of clients) ws.close(1001, 'shutting down'); setTimeout(() => process.exit(0), 200); });
