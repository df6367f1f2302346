#!/usr/bin/env node
// The benchmark's reference gateway (bench/gateway-vs-peer.sh, docs/benchmarks.md): what a user
// could pick instead of presence-mock-server, written the obvious way on Node's `ws`. It speaks
// the part of protocol v1 (docs/protocol.md) that presence-loadgen uses: hello, welcome,
// friends, subscribe, snapshot, unsubscribe, set_status, presence, ping, with the same frame
// shapes (keys sorted, as the gateway sends them), the same users file, the same presence rules
// (devices, invisible, grace before offline) and limits. Not there: availability, digests,
// chat, the rate limit, Redis, the admin API.
//   NODE_PATH=/usr/share/nodejs node ws-gateway.js --users FILE [--listen 127.0.0.1:PORT] [--grace-ms MS]
'use strict';
const fs = require('fs');
const { WebSocketServer } = require('ws');

const args = process.argv.slice(2);
const option = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const [host, port] = option('--listen', '127.0.0.1:8765').split(':');
const graceMs = Number(option('--grace-ms', 5000));
const heartbeatMs = 25000;
const limits = { availability_interval_ms: 1000, frame_burst: 100, max_availability_friends: 0,
    max_frame_bytes: 65536, max_frames_per_second: 50, max_ids_per_request: 500, max_subscriptions: 2000 };
const rank = { offline: 0, away: 1, online: 2 };
const idPattern = /^[A-Za-z0-9._-]{1,64}$/;

// The users file: a friendship listed on either side is mutual; friends in file order.
const list = JSON.parse(fs.readFileSync(option('--users'), 'utf8')).users;
const users = new Map(), byToken = new Map(), order = new Map();
list.forEach((u, i) => {
    const user = { id: u.id, name: u.name || u.id, friends: new Set(), devices: new Set(),
        published: 'offline', seq: 0, lastSeen: null, grace: null, watchers: new Set() };
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
    for (const ws of u.devices) if (ws.status !== 'invisible' && rank[ws.status] > rank[status]) status = ws.status;
    return status;
};
// One encoding per change, sent to every watcher.
function publish(u, status) {
    u.published = status; u.seq += 1;
    const frame = JSON.stringify(sorted({ ...entry(u), type: 'presence' }));
    for (const ws of u.watchers) ws.send(frame);
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

const wss = new WebSocketServer({ host, port: Number(port), perMessageDeflate: false, maxPayload: limits.max_frame_bytes });
wss.on('connection', (ws) => {
    ws.user = null; ws.watched = new Set(); ws.alive = true;
    const helloTimer = setTimeout(() => ws.close(4008, 'no hello'), 5000);
    ws.on('pong', () => { ws.alive = true; });
    ws.on('message', (data, isBinary) => {
        ws.alive = true;
        let m = null;
        try { m = isBinary ? null : JSON.parse(data); } catch { m = null; }
        const ref = m && typeof m.ref === 'string' ? m.ref : undefined;
        const reply = (o) => ws.send(JSON.stringify(sorted({ ...o, ref })));
        const error = (code, message) => reply({ code, message, type: 'error' });
        const u = ws.user;
        if (!u) {
            const user = m && m.type === 'hello' && typeof m.token === 'string' ? byToken.get(m.token) : undefined;
            const status = m && m.status !== undefined ? m.status : 'online';
            if (m && m.type === 'hello' && typeof m.protocol === 'number' && m.protocol !== 1) {
                error('unsupported_protocol', 'protocol 1 only'); return ws.close(4002, 'unsupported protocol');
            }
            if (!user || m.protocol !== 1 || !['online', 'away', 'invisible'].includes(status)) {
                error('unauthorized', 'bad hello'); return ws.close(4001, 'unauthorized');
            }
            clearTimeout(helloTimer);
            ws.user = user; ws.status = status;
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
            if (m.type === 'unsubscribe') {
                for (const id of m.ids) if (ws.watched.delete(id)) users.get(id).watchers.delete(ws);
                return reply({ type: 'ok' });
            }
            const ids = [...new Set(m.ids)], allowed = ids.filter((id) => u.friends.has(id));
            if (ws.watched.size + allowed.filter((id) => !ws.watched.has(id)).length > limits.max_subscriptions) return error('too_many_subscriptions', 'subscribe: too many subscriptions');
            for (const id of allowed) { ws.watched.add(id); users.get(id).watchers.add(ws); }
            return reply({ denied: ids.filter((id) => !u.friends.has(id)), type: 'snapshot', users: allowed.map((id) => entry(users.get(id))) });
        }
        case 'set_status': {
            if (!['online', 'away', 'invisible'].includes(m.status)) return error('bad_request', 'set_status: bad status');
            const wasVisible = aggregate(u) !== 'offline';
            ws.status = m.status;
            update(u, wasVisible, true);
            return reply({ type: 'ok' });
        }
        case 'ping': return reply({ type: 'pong' });
        case 'hello': return error('bad_request', 'hello: already signed in');
        default: return error('unknown_type', `unknown type ${m.type}`);
        }
    });
    ws.on('close', () => {
        clearTimeout(helloTimer);
        for (const id of ws.watched) users.get(id).watchers.delete(ws);
        const u = ws.user;
        if (!u) return;
        const wasVisible = aggregate(u) !== 'offline';
        u.devices.delete(ws);
        update(u, wasVisible, false);
    });
});
// Pings every heartbeat; a connection silent for a whole interval is dropped.
setInterval(() => { for (const ws of wss.clients) { if (!ws.alive) ws.terminate(); else { ws.alive = false; ws.ping(); } } }, heartbeatMs);
wss.on('listening', () => console.log(`presence peer (Node ws) listening on ws://${host}:${wss.address().port}/ (${users.size} users)`));
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => { for (const ws of wss.clients) ws.close(1001, 'shutting down'); setTimeout(() => process.exit(0), 200); });
