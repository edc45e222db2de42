package io.github.redisdelaybridge.config;

import com.rabbitmq.client.Address;
import com.rabbitmq.client.ConnectionFactory;
import java.util.List;

/**
 * How a RabbitMQ client connects with the {@code bridge.rabbitmq.*} settings: user, password, virtual host, TLS with the
 * host-name check, and every node of the host list. One place, so that the bridge's publisher, its consumer and
 * bin/publish connect alike; what each adds (timeouts, metrics, recovery) it sets on the factory itself.
 */
public final class RabbitMqConnections {

    private RabbitMqConnections() {
    }

    /** A factory with the settings' credentials, virtual host and TLS; host and port are those of the first node. */
    public static ConnectionFactory factory(RabbitMqSettings settings) {
        ConnectionFactory factory = new ConnectionFactory();
        RabbitMqSettings.Address first = settings.addresses().get(0);
        factory.setHost(first.host());
        factory.setPort(first.port());
        factory.setUsername(settings.username());
        factory.setPassword(settings.password());
        factory.setVirtualHost(settings.virtualHost());
        if (settings.tls() != null) {
            factory.useSslProtocol(settings.tls().clientContext());
            if (settings.verifyHostname()) {
                factory.enableHostnameVerification();
            }
        }
        return factory;
    }

    /** Every node of {@code bridge.rabbitmq.host}, for the client library, in the order given (tried in that order). */
    public static List<Address> addresses(RabbitMqSettings settings) {
        return settings.addresses().stream().map(a -> new Address(a.host(), a.port())).toList();
    }
}
