package io.github.redisdelaybridge.outbound.client;

import com.rabbitmq.client.Address;
import com.rabbitmq.client.BlockedListener;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import com.rabbitmq.client.ShutdownListener;
import java.io.IOException;
import java.util.List;

/**
 * The publishing connection and its one confirm-mode channel, opened when a publish needs them. No automatic recovery: a
 * channel or connection that closed fails what was pending on it ({@link ConfirmingChannel}), and the next publish opens
 * new ones; after a failed connection attempt the next waits {@value #RECONNECT_PAUSE_MS} ms, so a broker that is down
 * costs each publish an immediate failure rather than a connection timeout. Used by the publishing thread only ({@link #close}
 * aside).
 */
final class PublishingConnection {

    private static final long RECONNECT_PAUSE_MS = 1_000;
    /** A channel RPC (open, passive declare) that the broker does not answer in this time fails instead of hanging. */
    private static final int CHANNEL_RPC_TIMEOUT_MS = 10_000;

    private final ConnectionFactory factory;
    /** The cluster's nodes, tried in order; null: the factory's host and port. */
    private final List<Address> addresses;
    private final String connectionName;
    /** Told of every new connection's blocked, unblocked and shutdown events. */
    private final BlockedListener blockedListener;
    private final ShutdownListener shutdownListener;
    private volatile Connection connection;
    private ConfirmingChannel channel;
    private long reconnectNotBefore;
    private String lastConnectFailure;
    private volatile boolean closed;

    PublishingConnection(ConnectionFactory factory, List<Address> addresses, String connectionName, BlockedListener blockedListener,
                         ShutdownListener shutdownListener) {
        this.factory = factory;
        this.addresses = addresses == null ? null : List.copyOf(addresses);
        this.connectionName = connectionName;
        this.blockedListener = blockedListener;
        this.shutdownListener = shutdownListener;
        factory.setAutomaticRecoveryEnabled(false);
        factory.setTopologyRecoveryEnabled(false);
        factory.setChannelRpcTimeout(CHANNEL_RPC_TIMEOUT_MS);
    }

    /** The open channel, else a new one (on a new connection if need be). */
    ConfirmingChannel channel() throws Exception {
        if (closed) {
            throw new IllegalStateException("RabbitMQ publisher is closed");
        }
        if (channel != null && channel.isOpen()) {
            return channel;
        }
        if (connection == null || !connection.isOpen()) {
            if (System.currentTimeMillis() < reconnectNotBefore) {
                throw new IOException("RabbitMQ unreachable (retrying the connection shortly): " + lastConnectFailure);
            }
            try {
                connection = addresses == null ? factory.newConnection(connectionName) : factory.newConnection(addresses, connectionName);
                connection.addBlockedListener(blockedListener);
                connection.addShutdownListener(shutdownListener);
            } catch (Exception e) {
                reconnectNotBefore = System.currentTimeMillis() + RECONNECT_PAUSE_MS;
                lastConnectFailure = e.toString();
                throw e;
            }
        }
        channel = new ConfirmingChannel(connection.createChannel());
        return channel;
    }

    /** The connection {@link #channel()} opened last. */
    Connection connection() {
        return connection;
    }

    void close() {
        closed = true;
        Connection open = connection;
        if (open != null && open.isOpen()) {
            try {
                open.close(5_000);
            } catch (Exception ignored) {
                // the broker went away first
            }
        }
    }
}
