package io.github.redisdelaybridge.config;

import io.github.redisdelaybridge.message.Broker;
import io.github.redisdelaybridge.inbound.DelayRequestValidator;
import io.github.redisdelaybridge.inbound.DueTimeParser;
import io.github.redisdelaybridge.inbound.MessageScheduler;
import io.github.redisdelaybridge.inbound.UpstreamAcknowledger;
import io.github.redisdelaybridge.inbound.rabbitmq.RabbitMqBatchReader;
import io.github.redisdelaybridge.inbound.rabbitmq.RabbitMqBatchRequeuer;
import io.github.redisdelaybridge.metrics.BridgeMetrics;
import java.util.function.BooleanSupplier;
import org.apache.camel.spi.Registry;

/**
 * The inbound area's beans, which the Kafka and RabbitMQ inbound routes name: the header validators, the schedulers that
 * store messages (on the ingest connection, behind the durability barrier) and wake the dispatcher, the acknowledger.
 * Built after the dispatcher; nothing here holds a connection of its own, so nothing here stops.
 *
 * @param dueTimeParser the due-time rules, shared with the admin API
 * @param validator     the Kafka inbound validator, whose checks the admin API's dead-letter replay applies too
 */
record InboundWiring(DueTimeParser dueTimeParser, DelayRequestValidator validator) {

    static InboundWiring wire(Registry registry, BridgeSettings settings, StoreWiring stores, DispatchWiring dispatch, BridgeMetrics metrics,
                              BooleanSupplier stopping) {
        RabbitMqSettings rabbitMqSettings = settings.rabbitMq();
        DueTimeParser dueTimeParser = new DueTimeParser(settings.maxDelayMs());
        DelayRequestValidator validator = new DelayRequestValidator(dueTimeParser, dispatch.targetPolicy(), settings.defaultTargets(),
                settings.maxPayloadBytes());
        registry.bind("delayRequestValidator", validator);
        registry.bind("messageScheduler", new MessageScheduler(stores.ingestStore(), stores.inspectionStore(), stores.barrier(), dispatch.deadLetters(),
                dispatch.dispatcher(), stopping, metrics, 0, Broker.KAFKA));
        registry.bind("upstreamAcknowledger", new UpstreamAcknowledger());

        registry.bind("rabbitMqBatchReader", new RabbitMqBatchReader());
        registry.bind("rabbitMqRequestValidator", new DelayRequestValidator(dueTimeParser, dispatch.targetPolicy(),
                rabbitMqSettings.defaultTargetByQueue(), settings.maxPayloadBytes()));
        registry.bind("rabbitMqMessageScheduler", new MessageScheduler(stores.ingestStore(), stores.inspectionStore(), stores.barrier(), dispatch.deadLetters(),
                dispatch.dispatcher(), stopping, metrics, rabbitMqSettings.storeAttempts(), Broker.RABBITMQ));
        registry.bind("rabbitMqBatchRequeuer", new RabbitMqBatchRequeuer());
        return new InboundWiring(dueTimeParser, validator);
    }
}
