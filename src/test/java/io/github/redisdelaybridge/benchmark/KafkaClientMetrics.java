package io.github.redisdelaybridge.benchmark;

import java.lang.management.ManagementFactory;
import javax.management.MBeanServer;
import javax.management.ObjectName;

/**
 * Reads the Kafka consumers' own metrics from JMX in this JVM (the bridges' inbound consumers live here):
 * how many offset commits they made and how long one took, to show what the ingest path waits on.
 */
final class KafkaClientMetrics {

    private KafkaClientMetrics() {
    }

    /** Sum of an attribute over every consumer coordinator of this JVM (e.g. commit-total). */
    static double coordinatorSum(String attribute) {
        return over("kafka.consumer:type=consumer-coordinator-metrics,client-id=*", attribute, false);
    }

    /** Largest value of an attribute over every consumer coordinator (e.g. commit-latency-avg of the busy one). */
    static double coordinatorMax(String attribute) {
        return over("kafka.consumer:type=consumer-coordinator-metrics,client-id=*", attribute, true);
    }

    private static double over(String pattern, String attribute, boolean max) {
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        double result = 0;
        try {
            for (ObjectName name : server.queryNames(new ObjectName(pattern), null)) {
                Object value = server.getAttribute(name, attribute);
                if (value instanceof Number n && !Double.isNaN(n.doubleValue())) {
                    result = max ? Math.max(result, n.doubleValue()) : result + n.doubleValue();
                }
            }
        } catch (Exception e) {
            return -1;
        }
        return result;
    }
}
