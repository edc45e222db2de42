package io.github.redisdelaybridge.config;

import io.github.redisdelaybridge.deadletter.ChannelLimit;
import io.github.redisdelaybridge.deadletter.DeadLetterChannel;
import io.github.redisdelaybridge.deadletter.KafkaDeadLetterChannel;
import io.github.redisdelaybridge.deadletter.RabbitMqDeadLetterChannel;
import io.github.redisdelaybridge.inbound.rabbitmq.RabbitMqTopology;
import io.github.redisdelaybridge.inbound.rabbitmq.RawMessageConverter;
import io.github.redisdelaybridge.inbound.rabbitmq.VerbatimListenerContainerFactory;
import io.github.redisdelaybridge.message.Target;
import io.github.redisdelaybridge.outbound.client.KafkaProducerClient;
import io.github.redisdelaybridge.outbound.client.RabbitMqConfirmingClient;
import org.apache.camel.CamelContext;
import org.apache.camel.component.springrabbit.SpringRabbitMQComponent;
import org.springframework.amqp.rabbit.connection.CachingConnectionFactory;

/** The RabbitMQ side of the wiring: connections for the consumer and the publisher, and where RabbitMQ-origin dead letters go. */
final class RabbitMqWiring {

    private static final int RABBITMQ_CONNECT_TIMEOUT_MS = 5_000;

    private RabbitMqWiring() {
    }

    static DeadLetterChannel originDeadLetters(RabbitMqSettings settings, KafkaProducerClient kafka, RabbitMqConfirmingClient rabbitMq,
                                               DeadLetterLimits limits) {
        Target channel = Target.parse(settings.deadLetterChannel());
        if (channel instanceof Target.Kafka topic) {
            return new KafkaDeadLetterChannel(kafka, topic.topic(), kafkaDeadLetterLimit(limits));
        }
        Target.RabbitMq exchange = (Target.RabbitMq) channel;
        return new RabbitMqDeadLetterChannel(rabbitMq, exchange.exchange(), exchange.routingKey(),
                new ChannelLimit(limits.rabbitMqMaxBytes(), "bridge.dead-letter.rabbitmq-max-bytes"));
    }

    static ChannelLimit kafkaDeadLetterLimit(DeadLetterLimits limits) {
        return new ChannelLimit(limits.kafkaMaxBytes(), "bridge.dead-letter.kafka-max-bytes");
    }

    /** The connection factory of the publishing side ({@link RabbitMqConfirmingClient}, on the RabbitMQ client library). */
    static com.rabbitmq.client.ConnectionFactory clientConnections(RabbitMqSettings settings) {
        com.rabbitmq.client.ConnectionFactory factory = new com.rabbitmq.client.ConnectionFactory();
        factory.setHost(settings.host());
        factory.setPort(settings.port());
        factory.setUsername(settings.username());
        factory.setPassword(settings.password());
        factory.setVirtualHost(settings.virtualHost());
        factory.setConnectionTimeout(RABBITMQ_CONNECT_TIMEOUT_MS);
        return factory;
    }

    /**
     * The consumer's connection factory (Spring, as camel-spring-rabbitmq needs). It connects only when the
     * inbound route starts, so it costs nothing while RabbitMQ is disabled; the topology is declared on
     * every new connection.
     */
    static CachingConnectionFactory consumerConnections(RabbitMqSettings settings, String instanceId) {
        CachingConnectionFactory factory = new CachingConnectionFactory(settings.host(), settings.port());
        factory.setUsername(settings.username());
        factory.setPassword(settings.password());
        factory.setVirtualHost(settings.virtualHost());
        factory.setConnectionTimeout(RABBITMQ_CONNECT_TIMEOUT_MS);
        factory.setConnectionNameStrategy(f -> "redis-delay-bridge-consumer-" + instanceId);
        Target deadLetterChannel = Target.parse(settings.deadLetterChannel());
        String deadLetterQueue = deadLetterChannel instanceof Target.RabbitMq rabbitMq && rabbitMq.exchange().isEmpty()
                ? rabbitMq.routingKey() : null;
        factory.addConnectionListener(new RabbitMqTopology(settings.inboundQueues(), settings.inboundExchanges(), deadLetterQueue));
        return factory;
    }

    /** The inbound route gets every delivery exactly as the broker sent it: raw body, untouched headers. */
    static void configureConsumer(CamelContext context, CachingConnectionFactory connections) {
        SpringRabbitMQComponent component = context.getComponent("spring-rabbitmq", SpringRabbitMQComponent.class);
        component.setConnectionFactory(connections);
        component.setListenerContainerFactory(new VerbatimListenerContainerFactory());
        component.setMessageConverter(new RawMessageConverter());
    }
}
