package io.github.redisdelaybridge.store.connection;

import io.lettuce.core.api.StatefulRedisConnection;

/** A master the bridge writes to: how it is named in log lines, and the connection its writes go through. */
record MasterNode(String address, StatefulRedisConnection<byte[], byte[]> connection) {
}
