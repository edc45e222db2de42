package io.github.redisdelaybridge.config;

import io.github.redisdelaybridge.deadletter.ChannelLimit;
import io.github.redisdelaybridge.deadletter.DeadLetterChannel;
import io.github.redisdelaybridge.deadletter.KafkaDeadLetterChannel;
import io.github.redisdelaybridge.deadletter.RabbitMqDeadLetterChannel;
import io.github.redisdelaybridge.health.RabbitMqConnectionCheck;
import io.github.redisdelaybridge.inbound.rabbitmq.RabbitMqInboundConsumer;
import io.github.redisdelaybridge.inbound.rabbitmq.RabbitMqTopology;
import io.github.redisdelaybridge.message.Target;
import io.github.redisdelaybridge.outbound.client.KafkaProducerClient;
import io.github.redisdelaybridge.outbound.client.RabbitMqConfirmingClient;
import com.rabbitmq.client.impl.MicrometerMetricsCollector;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import org.apache.camel.CamelContext;
import java.util.stream.Collectors;
import org.apache.camel.ExtendedStartupListener;
import org.apache.camel.health.HealthCheckRegistry;
import org.apache.camel.spi.CamelEvent;
import org.apache.camel.support.EventNotifierSupport;
import org.springframework.amqp.rabbit.connection.AbstractConnectionFactory;
import org.springframework.amqp.rabbit.connection.CachingConnectionFactory;

/**
 * The RabbitMQ area: connections for the consumer and the publisher, and where RabbitMQ-origin dead letters go. The
 * publisher is built with the Kafka producers, before the dispatcher; the inbound consumer last ({@link #inbound}), and it
 * takes batches only once every route runs. Stop: the consumer as the stop begins; the publisher after the Kafka
 * producers, then the consumer's connections, both before the Redis connections.
 */
final class RabbitMqWiring {

    private static final int RABBITMQ_CONNECT_TIMEOUT_MS = 5_000;

    private RabbitMqWiring() {
    }

    /** @param deadLetterKafka the producer of the Kafka dead-letter channel (not that of the targets) */
    static DeadLetterChannel originDeadLetters(RabbitMqSettings settings, KafkaProducerClient deadLetterKafka, RabbitMqConfirmingClient rabbitMq,
                                               DeadLetterLimits limits) {
        Target channel = Target.parse(settings.deadLetterChannel());
        if (channel instanceof Target.Kafka topic) {
            return new KafkaDeadLetterChannel(deadLetterKafka, topic.topic(), kafkaDeadLetterLimit(limits));
        }
        Target.RabbitMq exchange = (Target.RabbitMq) channel;
        return new RabbitMqDeadLetterChannel(rabbitMq, exchange.exchange(), exchange.routingKey(),
                new ChannelLimit(limits.rabbitMqMaxBytes(), "bridge.dead-letter.rabbitmq-max-bytes"));
    }

    static ChannelLimit kafkaDeadLetterLimit(DeadLetterLimits limits) {
        return new ChannelLimit(limits.kafkaMaxBytes(), "bridge.dead-letter.kafka-max-bytes");
    }

    /** The publisher of RabbitMQ targets and dead letters; null while RabbitMQ is disabled. */
    static RabbitMqConfirmingClient publisher(RabbitMqSettings rabbitMqSettings, String instanceId, MeterRegistry meterRegistry) {
        return rabbitMqSettings.enabled()
                ? new RabbitMqConfirmingClient(clientConnections(rabbitMqSettings, meterRegistry), RabbitMqConnections.addresses(rabbitMqSettings),
                        "redis-delay-bridge-publisher-" + instanceId)
                : null;
    }

    /**
     * The inbound side: the consumer's connections (returned, to be destroyed when the bridge stops) and, while RabbitMQ is
     * enabled, their health check and the inbound consumer.
     */
    static CachingConnectionFactory inbound(CamelContext context, RabbitMqSettings rabbitMqSettings, String instanceId,
                                            MeterRegistry meterRegistry, HealthCheckRegistry health) throws Exception {
        CachingConnectionFactory rabbitMqConsumerConnections = consumerConnections(rabbitMqSettings, instanceId, meterRegistry);
        if (rabbitMqSettings.enabled()) {
            RabbitMqConnectionCheck rabbitMqHealth = new RabbitMqConnectionCheck();
            rabbitMqConsumerConnections.addConnectionListener(rabbitMqHealth);
            health.register(rabbitMqHealth);
            startInboundConsumer(context, rabbitMqConsumerConnections, rabbitMqSettings);
        }
        return rabbitMqConsumerConnections;
    }

    /** The connection factory of the publishing side ({@link RabbitMqConfirmingClient}, on the RabbitMQ client library). */
    static com.rabbitmq.client.ConnectionFactory clientConnections(RabbitMqSettings settings, MeterRegistry meters) {
        return clientConnections(settings, meters, "publisher");
    }

    /** @param client the {@code client} label of its {@code rabbitmq_*} metrics */
    private static com.rabbitmq.client.ConnectionFactory clientConnections(RabbitMqSettings settings, MeterRegistry meters, String client) {
        com.rabbitmq.client.ConnectionFactory factory = RabbitMqConnections.factory(settings);
        factory.setConnectionTimeout(RABBITMQ_CONNECT_TIMEOUT_MS);
        factory.setMetricsCollector(new MicrometerMetricsCollector(meters, "rabbitmq", Tags.of("client", client)));
        return factory;
    }

    /**
     * The consumer's connection factory (Spring AMQP's, for its listener container). It connects only when the
     * inbound consumer starts, so it costs nothing while RabbitMQ is disabled; the topology is declared on
     * every new connection.
     */
    static CachingConnectionFactory consumerConnections(RabbitMqSettings settings, String instanceId, MeterRegistry meters) {
        // built on the client library's factory, so the consumer connects exactly as the publisher does (TLS included)
        com.rabbitmq.client.ConnectionFactory client = settings.enabled() ? clientConnections(settings, meters, "consumer") : new com.rabbitmq.client.ConnectionFactory();
        client.setAutomaticRecoveryEnabled(false); // Spring recovers its connections itself
        CachingConnectionFactory factory = new CachingConnectionFactory(client);
        factory.setAddresses(settings.addresses().stream().map(a -> a.host() + ":" + a.port()).collect(Collectors.joining(",")));
        factory.setAddressShuffleMode(AbstractConnectionFactory.AddressShuffleMode.NONE);
        factory.setConnectionNameStrategy(f -> "redis-delay-bridge-consumer-" + instanceId);
        Target deadLetterChannel = Target.parse(settings.deadLetterChannel());
        String deadLetterQueue = deadLetterChannel instanceof Target.RabbitMq rabbitMq && rabbitMq.exchange().isEmpty()
                ? rabbitMq.routingKey() : null;
        factory.addConnectionListener(new RabbitMqTopology(settings.consumedQueues(), settings.exchangeByQueue(), deadLetterQueue));
        return factory;
    }

    /**
     * The batch consumer of the inbound queues, started once every route runs (a batch taken earlier would find no
     * inbound route and go back to its queue) and stopped as the stop begins, before the routes: the batches it is
     * storing finish and are acked, and nothing more is taken.
     */
    static void startInboundConsumer(CamelContext context, CachingConnectionFactory connections, RabbitMqSettings settings) throws Exception {
        RabbitMqInboundConsumer consumer = new RabbitMqInboundConsumer(context, connections, new RabbitMqInboundConsumer.Settings(
                settings.consumedQueues(), settings.consumersPerQueue(), settings.prefetch(), settings.batchSize(), settings.lingerMs()));
        context.addStartupListener(new ExtendedStartupListener() {
            @Override
            public void onCamelContextStarted(CamelContext started, boolean alreadyStarted) {
            }

            @Override
            public void onCamelContextFullyStarted(CamelContext started, boolean alreadyStarted) throws Exception {
                consumer.start();
            }
        });
        context.getManagementStrategy().addEventNotifier(new EventNotifierSupport() {
            @Override
            public void notify(CamelEvent event) {
                consumer.stop();
            }

            @Override
            public boolean isEnabled(CamelEvent event) {
                return event instanceof CamelEvent.CamelContextStoppingEvent;
            }
        });
    }
}
