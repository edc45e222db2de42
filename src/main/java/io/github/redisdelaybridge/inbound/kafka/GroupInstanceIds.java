package io.github.redisdelaybridge.inbound.kafka;

import java.util.BitSet;

/**
 * The {@code group.instance.id} of each inbound Kafka consumer of this instance, for static group membership (KIP-345):
 * {@code <instance-id>-<n>}, n the lowest number no open consumer of this instance holds. An instance restarted with the same
 * instance id (and consumer count) takes the same ids again, so the group coordinator gives its consumers the partitions
 * the old ones held at once, without waiting for their session to expire. Which consumer thread gets which number does not
 * matter: they are all this instance's.
 *
 * <p>One id per consumer because Camel gives every consumer of a route the same properties ({@code groupInstanceId}
 * included), and two open consumers with one {@code group.instance.id} fence each other. An id is given back when its
 * consumer closes, so a consumer Camel re-creates after an error rejoins under the id it had.
 */
public final class GroupInstanceIds {

    private final String instanceId;
    private final BitSet held = new BitSet();

    public GroupInstanceIds(String instanceId) {
        this.instanceId = instanceId;
    }

    /** The id for a consumer being created; {@link #release} it when that consumer is closed. */
    public synchronized String take() {
        int number = held.nextClearBit(0);
        held.set(number);
        return instanceId + "-" + number;
    }

    public synchronized void release(String groupInstanceId) {
        String prefix = instanceId + "-";
        if (groupInstanceId.startsWith(prefix)) {
            held.clear(Integer.parseInt(groupInstanceId.substring(prefix.length())));
        }
    }

    /** How the ids are formed, for the log: {@code node-1-<n>}. */
    @Override
    public String toString() {
        return instanceId + "-<n>";
    }
}
