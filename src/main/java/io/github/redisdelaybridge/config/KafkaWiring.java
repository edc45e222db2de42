package io.github.redisdelaybridge.config;

import io.github.redisdelaybridge.deadletter.DeadLetterChannel;
import io.github.redisdelaybridge.deadletter.KafkaDeadLetterChannel;
import io.github.redisdelaybridge.inbound.kafka.GroupInstanceIds;
import io.github.redisdelaybridge.inbound.kafka.KafkaConsumerAssignments;
import io.github.redisdelaybridge.inbound.kafka.KafkaRecordsReader;
import io.github.redisdelaybridge.inbound.kafka.KafkaTopicIds;
import io.github.redisdelaybridge.inbound.kafka.ObservedKafkaClientFactory;
import io.github.redisdelaybridge.outbound.client.KafkaProducerClient;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.BooleanSupplier;
import org.apache.camel.CamelContext;
import org.apache.camel.component.kafka.KafkaComponent;

/**
 * The Kafka area. First (after the store) the producers of the targets and of the dead letters, their meters, the
 * consumer properties of Camel's Kafka component and the Kafka dead-letter channel; then, once the targets have been
 * checked and the dispatcher exists, the inbound consumers' side ({@link #consumers}). Stop: the producers' meters and the
 * topic ids right after the dispatcher (nothing publishes any more), the producers after the JVM meters.
 *
 * @param producer                 the producer of the Kafka targets
 * @param deadLetterProducer       the producer of the Kafka dead-letter channels
 * @param producerMeters           {@code producer}'s meters, bound to the registry
 * @param deadLetterProducerMeters {@code deadLetterProducer}'s meters, bound to the registry
 * @param deadLetters              the dead-letter channel {@code bridge.dead-letter.kafka-topic}
 */
record KafkaWiring(KafkaProducerClient producer, KafkaProducerClient deadLetterProducer, AutoCloseable producerMeters,
                   AutoCloseable deadLetterProducerMeters, String clientId, KafkaMembership membership, KafkaComponent component,
                   DeadLetterChannel deadLetters) {

    /**
     * The inbound consumers' side: topic ids (an admin client of its own), the records reader and the client factory
     * that observes the consumers' assignments; {@code groupInstanceIds} is null with dynamic members.
     */
    record Consumers(KafkaTopicIds topicIds, KafkaConsumerAssignments assignments, GroupInstanceIds groupInstanceIds) {
    }

    static KafkaWiring wire(CamelContext context, BridgeSettings settings, MeterRegistry meterRegistry) {
        Map<String, Object> producerProperties = new LinkedHashMap<>();
        producerProperties.put("max.request.size", (int) settings.kafkaMaxRequestBytes());
        producerProperties.putAll(settings.kafkaClients().forProducer());
        String kafkaClientId = "redis-delay-bridge-" + settings.instanceId();
        KafkaProducerClient kafka = new KafkaProducerClient(settings.kafkaBootstrapServers(), kafkaClientId,
                producerProperties, settings.kafkaClients().forProducerAdmin(), settings.kafkaAllowTopicAutoCreation());
        // dead letters have a producer of their own that never batches them (see KafkaDeadLetterChannel.producerProperties),
        // with the same properties otherwise, so both go over connections secured alike
        KafkaProducerClient deadLetterKafka = new KafkaProducerClient(settings.kafkaBootstrapServers(),
                kafkaClientId + KafkaDeadLetterChannel.CLIENT_ID_SUFFIX, KafkaDeadLetterChannel.producerProperties(producerProperties),
                settings.kafkaClients().forProducerAdmin(), settings.kafkaAllowTopicAutoCreation());
        AutoCloseable kafkaProducerMeters = kafka.metrics();
        ((io.micrometer.core.instrument.binder.MeterBinder) kafkaProducerMeters).bindTo(meterRegistry);
        AutoCloseable deadLetterProducerMeters = deadLetterKafka.metrics();
        ((io.micrometer.core.instrument.binder.MeterBinder) deadLetterProducerMeters).bindTo(meterRegistry);
        KafkaComponent kafkaComponent = context.getComponent("kafka", KafkaComponent.class);
        // the inbound endpoints copy the component's configuration; its additional properties are applied last, over
        // the endpoint's own options
        Map<String, Object> consumerProperties = new LinkedHashMap<>();
        if (kafkaComponent.getConfiguration().getAdditionalProperties() != null) {
            consumerProperties.putAll(kafkaComponent.getConfiguration().getAdditionalProperties());
        }
        KafkaMembership membership = settings.kafkaMembership();
        consumerProperties.put("session.timeout.ms", (int) membership.sessionTimeoutMs());
        consumerProperties.putAll(settings.kafkaClients().forConsumer());
        kafkaComponent.getConfiguration().setAdditionalProperties(consumerProperties);
        DeadLetterChannel kafkaDeadLetters = new KafkaDeadLetterChannel(deadLetterKafka, settings.kafkaDeadLetterTopic(),
                RabbitMqWiring.kafkaDeadLetterLimit(settings.deadLetterLimits()));
        return new KafkaWiring(kafka, deadLetterKafka, kafkaProducerMeters, deadLetterProducerMeters, kafkaClientId, membership,
                kafkaComponent, kafkaDeadLetters);
    }

    /** Wires the inbound consumers' side and binds the records reader the Kafka inbound route names. */
    Consumers consumers(CamelContext context, BridgeSettings settings, MeterRegistry meterRegistry, BooleanSupplier stopping) {
        KafkaTopicIds kafkaTopicIds = new KafkaTopicIds(settings.kafkaClients().forConsumerAdmin(settings.kafkaBootstrapServers(),
                clientId + "-topic-ids"));
        context.getRegistry().bind("kafkaRecordsReader", new KafkaRecordsReader(kafkaTopicIds, stopping));
        KafkaConsumerAssignments kafkaAssignments = new KafkaConsumerAssignments(kafkaTopicIds);
        GroupInstanceIds groupInstanceIds = membership.staticMembers() ? new GroupInstanceIds(settings.instanceId()) : null;
        component.setKafkaClientFactory(new ObservedKafkaClientFactory(meterRegistry, kafkaAssignments, groupInstanceIds, stopping));
        return new Consumers(kafkaTopicIds, kafkaAssignments, groupInstanceIds);
    }
}
