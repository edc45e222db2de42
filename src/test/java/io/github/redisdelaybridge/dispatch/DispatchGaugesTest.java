package io.github.redisdelaybridge.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.redisdelaybridge.deadletter.DeadLetters;
import io.github.redisdelaybridge.metrics.BridgeMetrics;
import io.github.redisdelaybridge.metrics.DispatchGauges;
import io.github.redisdelaybridge.store.Keys;
import io.github.redisdelaybridge.store.StoreLimits;
import io.github.redisdelaybridge.store.connection.RedisConnection;
import io.github.redisdelaybridge.testkit.FreePorts;
import io.github.redisdelaybridge.testkit.StoreFaces;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * The dispatch loop's gauges are the metrics layer's to register: building a dispatcher leaves the registry alone, and
 * {@link DispatchGauges} registers both gauges, reading the loop's in-flight count and last cycle age.
 */
class DispatchGaugesTest {

    @Test
    void theMetricsRegisterTheLoopsGaugesNotTheDispatcher() throws Exception {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        BridgeMetrics metrics = new BridgeMetrics(registry);
        try (RedisConnection nowhere = new RedisConnection("redis://127.0.0.1:" + FreePorts.next(), Duration.ofMillis(500))) {
            StoreFaces store = StoreFaces.over(nowhere.async(), new Keys("gauges", 1), new StoreLimits(3_600_000, 60_000, 60_000, 1_000, 60_000));
            Dispatcher dispatcher = new Dispatcher(store.dispatch(), (envelope, target, dueAt) -> CompletableFuture.completedFuture(null),
                    new DeadLetters(null, store.ingest(), store.dispatch(), 1 << 20, metrics), new RetryPolicy(1_000, 2, 60_000, 86_400_000, 0),
                    new DispatchSettings(100, 1_000, 100, 60_000, 20_000, 500, 2_500, 50), () -> false, metrics);
            try {
                assertThat(registry.find("bridge.dispatch.in.flight").gauge()).as("in flight, after the constructor").isNull();
                assertThat(registry.find("bridge.dispatch.last.cycle.age.seconds").gauge()).as("last cycle age, after the constructor").isNull();

                DispatchGauges.register(metrics, dispatcher);

                Gauge inFlight = registry.find("bridge.dispatch.in.flight").gauge();
                Gauge lastCycleAge = registry.find("bridge.dispatch.last.cycle.age.seconds").gauge();
                assertThat(inFlight).isNotNull();
                assertThat(inFlight.getId().getDescription()).isEqualTo("messages published and not yet settled in Redis");
                assertThat(inFlight.getId().getTags()).isEmpty();
                assertThat(inFlight.value()).isZero();
                assertThat(lastCycleAge).isNotNull();
                assertThat(lastCycleAge.getId().getTags()).isEmpty();
                Thread.sleep(1_100);
                assertThat(lastCycleAge.value()).as("seconds since the dispatcher was created, no cycle having ended").isBetween(1.0, 60.0);
            } finally {
                dispatcher.close();
            }
        }
    }
}
