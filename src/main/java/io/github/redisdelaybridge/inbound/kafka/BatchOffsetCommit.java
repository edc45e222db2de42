package io.github.redisdelaybridge.inbound.kafka;

import io.github.redisdelaybridge.inbound.UpstreamAcknowledgement;
import java.util.List;
import org.apache.camel.component.kafka.consumer.KafkaManualCommit;
import org.apache.kafka.clients.consumer.CommitFailedException;
import org.apache.kafka.common.errors.RebalanceInProgressException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The acknowledgement of a Kafka batch: commits, per partition, the offset after the batch's last record.
 *
 * <p>A commit the group refuses because it is rebalancing, or has already given the partition to another member, is
 * not a failure of the batch: its records are in Redis, and the partition's owner after the rebalance reads them again
 * from the last committed offset and stores them again under the same ids. It gets one warning and the batch ends
 * normally. Thrown on, it would have Camel log the batch as failed, at ERROR with a stack trace, for a routine event of
 * every deployment and restart. Any other failure of a commit is thrown on.
 */
final class BatchOffsetCommit implements UpstreamAcknowledgement {

    private static final Logger LOG = LoggerFactory.getLogger(BatchOffsetCommit.class);

    /** The commit of one partition's last record in the batch. */
    record PartitionCommit(String topic, int partition, long lastOffset, KafkaManualCommit commit) {
    }

    private final List<PartitionCommit> partitions;

    BatchOffsetCommit(List<PartitionCommit> partitions) {
        this.partitions = List.copyOf(partitions);
    }

    @Override
    public void acknowledge() {
        for (PartitionCommit partition : partitions) {
            try {
                partition.commit().commit();
            } catch (RebalanceInProgressException | CommitFailedException refused) {
                LOG.warn("Kafka offset commit of {}-{} up to offset {} refused, the consumer group is rebalancing ({}): the records are "
                                + "stored in Redis; the partition's next owner reads them again from the last committed offset and stores "
                                + "them under the same ids",
                        partition.topic(), partition.partition(), partition.lastOffset() + 1, refused.getClass().getSimpleName());
            }
        }
    }
}
