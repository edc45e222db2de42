package io.github.redisdelaybridge.deadletter;

import io.github.redisdelaybridge.message.DeadLetter;
import io.github.redisdelaybridge.outbound.KafkaHeaderMapping;
import io.github.redisdelaybridge.outbound.client.KafkaProducerClient;
import java.util.concurrent.CompletableFuture;

/**
 * Dead letters to a Kafka topic, with the reason, detail, origin and attempts as headers ({@link DeadLetterHeaders}).
 * A RabbitMQ-origin dead letter's headers and properties are mapped as for a Kafka target ({@link KafkaHeaderMapping}).
 */
public final class KafkaDeadLetterChannel implements DeadLetterChannel {

    private final KafkaProducerClient kafka;
    private final String topic;
    private final ChannelLimit limit;

    public KafkaDeadLetterChannel(KafkaProducerClient kafka, String topic, ChannelLimit limit) {
        this.kafka = kafka;
        this.topic = topic;
        this.limit = limit;
    }

    @Override
    public ChannelLimit limit(DeadLetter deadLetter) {
        return limit;
    }

    @Override
    public CompletableFuture<Void> send(DeadLetter deadLetter) {
        return kafka.publish(topic, deadLetter.key(),
                DeadLetterHeaders.of(KafkaHeaderMapping.headers(deadLetter.headers(), deadLetter.properties()), deadLetter),
                deadLetter.body()).thenApply(metadata -> null);
    }
}
