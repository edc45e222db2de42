package io.github.redisdelaybridge.health;

import java.util.Map;
import org.apache.camel.health.HealthCheckResultBuilder;
import org.apache.camel.impl.health.AbstractHealthCheck;
import org.springframework.amqp.rabbit.connection.Connection;
import org.springframework.amqp.rabbit.connection.ConnectionListener;

/**
 * Readiness, with RabbitMQ enabled: DOWN unless the inbound consumers' connection to RabbitMQ is open. Follows the
 * connection factory's events ({@link ConnectionListener}) instead of connecting from the probe, so a probe never waits for
 * a connection timeout; the listener container reconnects by itself every few seconds.
 */
public final class RabbitMqConnectionCheck extends AbstractHealthCheck implements ConnectionListener {

    private volatile Connection connection;
    private volatile String lastFailure;

    public RabbitMqConnectionCheck() {
        super("redis-delay-bridge", "rabbitmq");
    }

    @Override
    public boolean isLiveness() {
        return false;
    }

    @Override
    public void onCreate(Connection created) {
        connection = created;
        lastFailure = null;
    }

    @Override
    public void onClose(Connection closed) {
        if (connection == closed) {
            connection = null;
        }
    }

    @Override
    public void onShutDown(com.rabbitmq.client.ShutdownSignalException signal) {
        lastFailure = signal.getMessage();
    }

    @Override
    public void onFailed(Exception exception) {
        lastFailure = exception.getMessage();
    }

    @Override
    protected void doCall(HealthCheckResultBuilder builder, Map<String, Object> options) {
        Connection current = connection;
        if (current != null && current.isOpen()) {
            builder.detail("rabbitmq", "connected");
            builder.up();
        } else {
            builder.detail("rabbitmq", "not connected");
            builder.message("the inbound consumers' RabbitMQ connection is not open" + (lastFailure == null ? "" : ": " + lastFailure));
            builder.down();
        }
    }
}
