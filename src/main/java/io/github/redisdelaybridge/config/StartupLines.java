package io.github.redisdelaybridge.config;

import io.github.redisdelaybridge.admin.AdminAuthorizer;
import io.github.redisdelaybridge.inbound.kafka.GroupInstanceIds;
import io.github.redisdelaybridge.store.connection.RedisConnection;
import org.apache.camel.CamelContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The lines the bridge logs once it is wired: where it reads from and dead-letters to, how its Kafka consumers belong to
 * their group, RabbitMQ on or off, the Kafka client settings (values not shown) and who may call the admin API.
 */
final class StartupLines {

    /** Under the composition root's name, as the rest of the wiring's lines: one logger to filter on for the start. */
    private static final Logger LOG = LoggerFactory.getLogger(BridgeBeans.class);

    private StartupLines() {
    }

    /** @param groupInstanceIds the inbound consumers' static member ids; null with dynamic members */
    static void log(CamelContext context, BridgeSettings settings, RedisConnection redis, KafkaMembership membership,
                    GroupInstanceIds groupInstanceIds, AdminAuthorizer adminAuthorizer) {
        RabbitMqSettings rabbitMqSettings = settings.rabbitMq();
        LOG.info("bridge instance {}: inbound Kafka topics {} on {}, Redis {}{} (prefix {}, {} slot(s)), dead letters to kafka:{}",
                settings.instanceId(), settings.kafkaInboundTopics(), settings.kafkaBootstrapServers(), redis.description(),
                settings.redisCluster() ? " (cluster)" : "", settings.keyPrefix(), settings.slots(), settings.kafkaDeadLetterTopic());
        String groupId = context.resolvePropertyPlaceholders("{{bridge.kafka.group-id}}").strip();
        if (groupInstanceIds != null) {
            LOG.info("Kafka group {}: static members {}; restarted with this instance id, the bridge takes its partitions back at once;"
                    + " stopped, it leaves the group; gone without stopping, its partitions go to the others after {} ms (session timeout)",
                    groupId, groupInstanceIds, membership.sessionTimeoutMs());
        } else {
            LOG.info("Kafka group {}: dynamic members (bridge.instance-id is not set); after a crash, this instance's partitions wait"
                    + " {} ms (session timeout) for the group to drop its old members, even when it restarts at once",
                    groupId, membership.sessionTimeoutMs());
        }
        if (rabbitMqSettings.enabled()) {
            LOG.info("{}: inbound queues {} (exchanges {}), delayed exchanges {}, dead letters of RabbitMQ-origin messages to {}",
                    rabbitMqSettings, rabbitMqSettings.inboundQueues(), rabbitMqSettings.inboundExchanges(),
                    rabbitMqSettings.delayedExchangeList(), rabbitMqSettings.deadLetterChannel());
        } else {
            LOG.info("RabbitMQ disabled (bridge.rabbitmq.enabled=false): Kafka only");
        }
        if (!settings.kafkaClients().equals(KafkaClientProperties.none())) {
            LOG.info("{} (values not shown)", settings.kafkaClients());
        }
        LOG.info("admin API on /api: {}", adminAuthorizer.describe());
    }
}
