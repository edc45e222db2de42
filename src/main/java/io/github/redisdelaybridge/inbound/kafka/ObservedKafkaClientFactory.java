package io.github.redisdelaybridge.inbound.kafka;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.kafka.KafkaClientMetrics;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import org.apache.camel.component.kafka.DefaultKafkaClientFactory;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;

/**
 * Creates the inbound route's Kafka consumers as Camel would, and observes each: its client metrics go to the meter
 * registry ({@link KafkaClientMetrics}, removed when it is closed), and the rebalance listener it subscribes with is
 * followed so readiness knows whether it has joined its group ({@link KafkaConsumerAssignments}). The consumer is handed
 * to Camel behind a {@link Proxy} of {@link Consumer} that only looks at {@code subscribe} and {@code close}.
 *
 * <p>With static membership each consumer gets a {@code group.instance.id} of its own ({@link GroupInstanceIds}); one
 * closed while the bridge stops leaves its group ({@link StaticMemberLeave}), as a dynamic member's close does by itself,
 * so a stopped instance's partitions move at once. One closed for any other reason (Camel re-creating it after an error)
 * stays a member: its successor takes its id and its partitions back.
 */
public final class ObservedKafkaClientFactory extends DefaultKafkaClientFactory {

    private final MeterRegistry registry;
    private final KafkaConsumerAssignments assignments;
    private final GroupInstanceIds staticIds;
    private final BooleanSupplier stopping;
    private final StaticMemberLeave leave;

    /**
     * @param staticIds the consumers' {@code group.instance.id}s; null: dynamic members
     * @param stopping  whether the bridge is stopping (a static member closed then leaves its group)
     */
    public ObservedKafkaClientFactory(MeterRegistry registry, KafkaConsumerAssignments assignments, GroupInstanceIds staticIds,
                                      BooleanSupplier stopping) {
        this(registry, assignments, staticIds, stopping, new StaticMemberLeave());
    }

    /** {@code leave}: how a stopping static member leaves its group (tests give it a short timeout). */
    ObservedKafkaClientFactory(MeterRegistry registry, KafkaConsumerAssignments assignments, GroupInstanceIds staticIds,
                               BooleanSupplier stopping, StaticMemberLeave leave) {
        this.registry = registry;
        this.assignments = assignments;
        this.staticIds = staticIds;
        this.stopping = stopping;
        this.leave = leave;
    }

    @Override
    @SuppressWarnings({"rawtypes", "unchecked"})
    public Consumer getConsumer(Properties properties) {
        if (staticIds == null) {
            return observed(super.getConsumer(properties), null);
        }
        String groupInstanceId = staticIds.take();
        // a copy: Camel keeps the properties for the consumer it re-creates after an error, which numbers itself again
        Properties withId = new Properties();
        withId.putAll(properties);
        withId.put(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG, groupInstanceId);
        try {
            AtomicBoolean closed = new AtomicBoolean();
            return observed(super.getConsumer(withId), () -> {
                if (closed.compareAndSet(false, true)) {
                    if (stopping.getAsBoolean()) {
                        leave.leave(withId, groupInstanceId);
                    }
                    staticIds.release(groupInstanceId);
                }
            });
        } catch (RuntimeException e) {
            staticIds.release(groupInstanceId);
            throw e;
        }
    }

    /** {@code afterClose} (may be null) runs once the consumer is closed. */
    @SuppressWarnings({"rawtypes", "unchecked"})
    private Consumer observed(Consumer consumer, Runnable afterClose) {
        KafkaClientMetrics metrics = new KafkaClientMetrics(consumer);
        metrics.bindTo(registry);
        long number = assignments.created();
        InvocationHandler handler = (proxy, method, args) -> {
            if (method.getName().equals("subscribe") && args != null && args.length == 2 && args[1] instanceof ConsumerRebalanceListener listener) {
                args[1] = assignments.following(number, listener);
            } else if (method.getName().equals("subscribe") && args != null && args.length == 1
                    && (args[0] instanceof java.util.Collection || args[0] instanceof java.util.regex.Pattern)) {
                // subscribe(topics) or subscribe(pattern) without a listener: follow it with one of ours
                Object[] withListener = {args[0], assignments.following(number, null)};
                return invoke(consumer, consumer.getClass().getMethod("subscribe", method.getParameterTypes()[0], ConsumerRebalanceListener.class),
                        withListener);
            } else if (method.getName().equals("close")) {
                assignments.closed(number);
                metrics.close();
                try {
                    return invoke(consumer, method, args);
                } finally {
                    if (afterClose != null) {
                        afterClose.run();
                    }
                }
            }
            return invoke(consumer, method, args);
        };
        return (Consumer) Proxy.newProxyInstance(Consumer.class.getClassLoader(), new Class<?>[] {Consumer.class}, handler);
    }

    private static Object invoke(Object target, java.lang.reflect.Method method, Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }
}
