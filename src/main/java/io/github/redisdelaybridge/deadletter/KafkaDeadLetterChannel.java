package io.github.redisdelaybridge.deadletter;

import io.github.redisdelaybridge.message.DeadLetter;
import io.github.redisdelaybridge.message.HeaderNames;
import io.github.redisdelaybridge.message.MessageHeader;
import io.github.redisdelaybridge.outbound.KafkaHeaderMapping;
import io.github.redisdelaybridge.outbound.client.KafkaProducerClient;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Dead letters to a Kafka topic, with the reason, detail, origin and attempts as headers. A RabbitMQ-origin
 * dead letter's headers and properties are mapped as for a Kafka target ({@link KafkaHeaderMapping}).
 */
public final class KafkaDeadLetterChannel implements DeadLetterChannel {

    private final KafkaProducerClient kafka;
    private final String topic;

    public KafkaDeadLetterChannel(KafkaProducerClient kafka, String topic) {
        this.kafka = kafka;
        this.topic = topic;
    }

    @Override
    public CompletableFuture<Void> send(DeadLetter deadLetter) {
        List<MessageHeader> headers = new ArrayList<>(KafkaHeaderMapping.headers(deadLetter.headers(), deadLetter.properties()));
        if (deadLetter.messageId() != null && headers.stream().noneMatch(h -> h.name().equals(HeaderNames.MESSAGE_ID))) {
            headers.add(MessageHeader.text(HeaderNames.MESSAGE_ID, deadLetter.messageId()));
        }
        headers.add(MessageHeader.text(HeaderNames.DEAD_LETTER_REASON, deadLetter.reason().code()));
        headers.add(MessageHeader.text(HeaderNames.DEAD_LETTER_DETAIL, deadLetter.detail()));
        headers.add(MessageHeader.text(HeaderNames.DEAD_LETTER_ORIGIN, deadLetter.origin()));
        headers.add(MessageHeader.text(HeaderNames.DEAD_LETTER_ATTEMPTS, Integer.toString(deadLetter.attempts())));
        return kafka.publish(topic, deadLetter.key(), headers, deadLetter.body()).thenApply(metadata -> null);
    }
}
