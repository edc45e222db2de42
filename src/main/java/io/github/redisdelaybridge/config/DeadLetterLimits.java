package io.github.redisdelaybridge.config;

/**
 * How large dead letters may be, where they go and where they are kept.
 *
 * @param kafkaMaxBytes      largest dead letter sent to a Kafka dead-letter topic ({@code bridge.dead-letter.kafka-max-bytes});
 *                           match the topic's {@code max.message.bytes}
 * @param rabbitMqMaxBytes   largest dead letter sent to a RabbitMQ dead-letter queue or exchange
 *                           ({@code bridge.dead-letter.rabbitmq-max-bytes}); match the broker's {@code max_message_size}
 * @param keepMaxBytes       bytes of dead-letter records kept in Redis over all slots ({@code bridge.dead-letter.keep-max-bytes})
 * @param recordMaxBytes     largest record kept whole in Redis: the largest accepted message plus room for the details
 */
public record DeadLetterLimits(long kafkaMaxBytes, long rabbitMqMaxBytes, long keepMaxBytes, long recordMaxBytes) {

    /** Room in a dead-letter record beyond the message: reason, bounded detail, origin, target, the envelope's framing. */
    static final long RECORD_ROOM_BYTES = 64 * 1024;
    /** The smallest limit accepted: a dead letter without the message (reason, detail, origin, id) must always fit. */
    static final long MIN_CHANNEL_BYTES = 16 * 1024;
}
