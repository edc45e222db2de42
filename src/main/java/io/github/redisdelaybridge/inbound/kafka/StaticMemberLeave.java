package io.github.redisdelaybridge.inbound.kafka;

import io.github.redisdelaybridge.message.Failures;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.MemberToRemove;
import org.apache.kafka.clients.admin.RemoveMembersFromConsumerGroupOptions;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.errors.UnknownMemberIdException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Takes a closed static member out of its consumer group, so that its partitions go to the other consumers at once instead
 * of after the session timeout. A static member's {@code close()} does not leave the group in kafka-clients before 4.1
 * (there {@code close(CloseOptions)} can, KIP-1092); the admin API's {@code removeMembersFromConsumerGroup} (KIP-345) does
 * it by {@code group.instance.id}, with the consumer's own connection settings, hence its credentials.
 */
public final class StaticMemberLeave {

    private static final Logger LOG = LoggerFactory.getLogger(StaticMemberLeave.class);
    /** Within the shutdown timeout (30 s) even with several consumers leaving one after another. */
    private static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(5);

    private final Duration timeout;

    public StaticMemberLeave() {
        this(DEFAULT_TIMEOUT);
    }

    /** {@code timeout}: how long a leave may wait for the broker; tests of a broker that does not answer shorten it. */
    StaticMemberLeave(Duration timeout) {
        this.timeout = timeout;
    }

    /** Removes {@code groupInstanceId} from the group {@code consumerProperties} name; failures are logged, not thrown. */
    public void leave(Properties consumerProperties, String groupInstanceId) {
        String group = consumerProperties.getProperty(ConsumerConfig.GROUP_ID_CONFIG);
        Map<String, Object> adminProperties = new HashMap<>();
        consumerProperties.forEach((name, value) -> {
            if (AdminClientConfig.configNames().contains(name.toString())) {
                adminProperties.put(name.toString(), value);
            }
        });
        adminProperties.put(AdminClientConfig.CLIENT_ID_CONFIG, groupInstanceId + "-leave");
        adminProperties.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) timeout.toMillis());
        adminProperties.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, (int) timeout.toMillis());
        RemoveMembersFromConsumerGroupOptions options = new RemoveMembersFromConsumerGroupOptions(List.of(new MemberToRemove(groupInstanceId)));
        options.reason("redis-delay-bridge consumer " + groupInstanceId + " stopped");
        Admin admin = null;
        try {
            // inside the try: a client that cannot even be built (a bad property) must not make the consumer's close throw
            admin = Admin.create(adminProperties);
            admin.removeMembersFromConsumerGroup(group, options).all().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            LOG.info("Kafka consumer {} left group {}: its partitions go to the other consumers now", groupInstanceId, group);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof UnknownMemberIdException) {
                LOG.info("Kafka consumer {} was no longer a member of group {}", groupInstanceId, group);
            } else {
                warn(group, groupInstanceId, Failures.rootMessage(e.getCause()));
            }
        } catch (TimeoutException e) {
            warn(group, groupInstanceId, "no answer within " + timeout.toMillis() + " ms"); // this exception carries no message
        } catch (RuntimeException e) {
            // the root: "Failed to create new KafkaAdminClient" alone would hide which setting is wrong
            warn(group, groupInstanceId, Failures.rootMessage(e));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            warn(group, groupInstanceId, "interrupted");
        } finally {
            if (admin != null) {
                admin.close(Duration.ofSeconds(1));
            }
        }
    }

    private static void warn(String group, String groupInstanceId, String why) {
        LOG.warn("Kafka consumer {} could not leave group {} ({}): its partitions go to the other consumers after the session timeout",
                groupInstanceId, group, why);
    }
}
