package io.github.redisdelaybridge.benchmark;

import com.rabbitmq.client.ConnectionFactory;
import io.github.redisdelaybridge.testkit.RabbitMqTestClient;
import java.util.Map;

/** What the RabbitMQ scenarios share: connections to this machine's RabbitMQ, and a bridge that consumes it. */
final class RabbitMqBench {

    private RabbitMqBench() {
    }

    /** Connections to the local RabbitMQ, for the load generator and the ceilings. */
    static ConnectionFactory connections() {
        ConnectionFactory factory = new ConnectionFactory();
        factory.setHost(RabbitMqTestClient.HOST);
        factory.setPort(RabbitMqTestClient.PORT);
        return factory;
    }

    /**
     * Settings of a bridge on the benchmark's Redis with RabbitMQ enabled, consuming {@code inboundQueue}; its Kafka inbound
     * topic (created here) stays empty.
     */
    static Map<String, String> bridgeSettings(BenchEnvironment env, String name, String inboundQueue) {
        String unusedInbound = env.topic(name, "unused-inbound");
        env.createTopics(1, unusedInbound);
        Map<String, String> settings = env.bridgeSettings(name, unusedInbound);
        settings.putAll(env.standaloneRedis().bridgeSettings());
        settings.put("bridge.rabbitmq.enabled", "true");
        settings.put("bridge.rabbitmq.host", RabbitMqTestClient.HOST);
        settings.put("bridge.rabbitmq.port", Integer.toString(RabbitMqTestClient.PORT));
        settings.put("bridge.rabbitmq.inbound-queues", inboundQueue);
        settings.put("bridge.rabbitmq.dead-letter-channel", "rabbitmq:/" + env.prefix(name) + ".dlq");
        return settings;
    }
}
