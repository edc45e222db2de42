package io.github.redisdelaybridge.inbound.kafka;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.kafka.KafkaClientMetrics;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.Properties;
import org.apache.camel.component.kafka.DefaultKafkaClientFactory;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;

/**
 * Creates the inbound route's Kafka consumers as Camel would, and observes each: its client metrics go to the meter
 * registry ({@link KafkaClientMetrics}, removed when it is closed), and the rebalance listener it subscribes with is
 * followed so readiness knows whether it has joined its group ({@link KafkaConsumerAssignments}). The consumer is handed
 * to Camel behind a {@link Proxy} of {@link Consumer} that only looks at {@code subscribe} and {@code close}.
 */
public final class ObservedKafkaClientFactory extends DefaultKafkaClientFactory {

    private final MeterRegistry registry;
    private final KafkaConsumerAssignments assignments;

    public ObservedKafkaClientFactory(MeterRegistry registry, KafkaConsumerAssignments assignments) {
        this.registry = registry;
        this.assignments = assignments;
    }

    @Override
    @SuppressWarnings({"rawtypes", "unchecked"})
    public Consumer getConsumer(Properties properties) {
        Consumer consumer = super.getConsumer(properties);
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
