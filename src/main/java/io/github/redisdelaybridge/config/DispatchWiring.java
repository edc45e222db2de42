package io.github.redisdelaybridge.config;

import io.github.redisdelaybridge.message.Broker;
import io.github.redisdelaybridge.deadletter.DeadLetterChannel;
import io.github.redisdelaybridge.deadletter.DeadLetters;
import io.github.redisdelaybridge.deadletter.OriginRoutingDeadLetterChannel;
import io.github.redisdelaybridge.dispatch.Dispatcher;
import io.github.redisdelaybridge.dispatch.LeaseReaper;
import io.github.redisdelaybridge.dispatch.parking.ParkedTargets;
import io.github.redisdelaybridge.dispatch.parking.ParkedTargetsWork;
import io.github.redisdelaybridge.metrics.BridgeMetrics;
import io.github.redisdelaybridge.outbound.BrokerRoutingPublisher;
import io.github.redisdelaybridge.outbound.KafkaTargetPublisher;
import io.github.redisdelaybridge.outbound.RabbitMqTargetPublisher;
import io.github.redisdelaybridge.outbound.TargetLimits;
import io.github.redisdelaybridge.outbound.TargetPolicy;
import io.github.redisdelaybridge.outbound.client.RabbitMqConfirmingClient;
import io.github.redisdelaybridge.store.parking.TargetState;
import java.util.HashSet;
import java.util.Set;
import java.util.function.BooleanSupplier;
import org.apache.camel.spi.Registry;

/**
 * The dispatch area: the dead letters, the publisher of the targets, the target policy (the configured targets are
 * checked against it here, before the dispatcher exists) and the dispatcher with its lease reaper. Built after the store and
 * the Kafka and RabbitMQ publishers, before the inbound side (which wakes the dispatcher). Stop: the dispatcher first of
 * all, once the routes have stopped: it waits for the messages in flight to settle while the brokers and Redis still answer.
 *
 * @param deadLetters       the dead letters of dispatching, ingest and the admin API
 * @param targetPolicy      which targets messages may name
 * @param parkedTargets     which targets are parked, paused or returning, for the dispatcher and the admin API
 * @param parkedTargetsWork the parked targets' probes, expiry and returns, on a timer
 */
record DispatchWiring(DeadLetters deadLetters, TargetPolicy targetPolicy, Dispatcher dispatcher, ParkedTargets parkedTargets,
                      ParkedTargetsWork parkedTargetsWork) {

    /** How often the parked targets' work runs ({@code routes/dispatch.yaml}). */
    static final long PARKING_INTERVAL_MS = 100;

    /** @param rabbitMq the RabbitMQ publisher; null while RabbitMQ is disabled */
    static DispatchWiring wire(BridgeSettings settings, StoreWiring stores, KafkaWiring kafkaWiring, RabbitMqConfirmingClient rabbitMq,
                               BridgeMetrics metrics, BooleanSupplier stopping) {
        RabbitMqSettings rabbitMqSettings = settings.rabbitMq();
        DeadLetterLimits deadLetterLimits = settings.deadLetterLimits();
        DeadLetterChannel kafkaDeadLetters = kafkaWiring.deadLetters();
        DeadLetterChannel deadLetterChannel = rabbitMq == null ? kafkaDeadLetters
                : new OriginRoutingDeadLetterChannel(kafkaDeadLetters, RabbitMqWiring.originDeadLetters(rabbitMqSettings,
                kafkaWiring.deadLetterProducer(), rabbitMq, deadLetterLimits));
        BrokerRoutingPublisher targetPublisher = new BrokerRoutingPublisher(new KafkaTargetPublisher(kafkaWiring.producer()),
                rabbitMq == null ? null : new RabbitMqTargetPublisher(rabbitMq));
        DeadLetters deadLetters = new DeadLetters(deadLetterChannel, stores.ingestStore(), stores.dispatchStore(),
                deadLetterLimits.recordMaxBytes(), metrics);

        TargetPolicy targetPolicy = targetPolicy(settings);
        TargetSettingsCheck.checkTargets(settings, targetPolicy);

        TargetLimits targetLimits = new TargetLimits(settings.targetLimits());
        ParkedTargets parkedTargets = new ParkedTargets(stores.parkingStore(), settings.parking());
        Dispatcher dispatcher = new Dispatcher(stores.dispatchStore(), targetPublisher, deadLetters, settings.retry(), settings.dispatch(),
                targetLimits, parkedTargets, stopping, metrics, settings.instanceId());
        ParkedTargetsWork parkedTargetsWork = new ParkedTargetsWork(parkedTargets, target -> targetLimits.rateOf(target), dispatcher.claimerId(),
                settings.redisTimeoutMs(), PARKING_INTERVAL_MS);
        metrics.gauge("bridge.messages.parked", "messages parked with their target (failing or paused), over every slot",
                parkedTargetsWork::parkedMessages);
        for (TargetState.Kind kind : TargetState.Kind.values()) {
            metrics.gauge("bridge.targets.parking", "targets parked (failing), paused or returning their parked messages", "state",
                    kind.name().toLowerCase(java.util.Locale.ROOT), () -> parkedTargetsWork.targets(kind));
        }
        return new DispatchWiring(deadLetters, targetPolicy, dispatcher, parkedTargets, parkedTargetsWork);
    }

    /** The targets messages may name: the allow-list, never an inbound channel (a loop), only enabled brokers. */
    static TargetPolicy targetPolicy(BridgeSettings settings) {
        RabbitMqSettings rabbitMqSettings = settings.rabbitMq();
        Set<String> inboundChannels = new HashSet<>();
        Set<String> enabledBrokers = new HashSet<>(Set.of(Broker.KAFKA.label()));
        settings.kafkaInboundTopics().forEach(topic -> inboundChannels.add(Broker.KAFKA.scheme() + topic));
        if (rabbitMqSettings.enabled()) {
            enabledBrokers.add(Broker.RABBITMQ.label());
            rabbitMqSettings.consumedQueues().forEach(queue -> inboundChannels.add(Broker.RABBITMQ.scheme() + "/" + queue));
            rabbitMqSettings.exchangeByQueue().values().forEach(exchange -> inboundChannels.add(Broker.RABBITMQ.scheme() + exchange + "/*"));
        }
        return new TargetPolicy(settings.allowedTargets(), inboundChannels, enabledBrokers);
    }

    /** Binds the beans the dispatch routes name. */
    void bind(Registry registry, StoreWiring stores, BridgeSettings settings, BridgeMetrics metrics) {
        registry.bind("dispatcher", dispatcher);
        registry.bind("leaseReaper", new LeaseReaper(stores.dispatchStore(), settings.redisTimeoutMs(), metrics));
        registry.bind("parkedTargetsWork", parkedTargetsWork);
    }
}
