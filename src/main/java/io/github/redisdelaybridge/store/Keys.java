package io.github.redisdelaybridge.store;

import io.github.redisdelaybridge.message.codec.EnvelopeCodec;
import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32;

/**
 * The Redis key layout, in one place: no other class builds a key string.
 *
 * <p>Every key of a slot carries the hash tag {@code {<prefix>:<slot>}}, so all keys one script
 * touches live in the same Redis Cluster hash slot, and different slots spread over the masters.
 * A message always lives in the slot chosen by {@link #slotOf(String)} from its id.
 *
 * <p>The due, in-flight, delivered and cancelled sets and the payloads, attempts and failing-since hashes hold a message
 * under its <em>member</em> ({@code lua/lib/memberIds}): a default Kafka id, {@code <topic>@<topic id>-<partition>-<offset>},
 * packed into a few bytes with its stem (topic and topic id) interned in {@link #names(int)}, any other id verbatim. The scripts
 * convert; the bridge and the admin API see ids. Dead letters are keyed by id. The stored forms: docs/storage-formats.md.
 */
public final class Keys {

    private final String prefix;
    private final int slotCount;

    public Keys(String prefix, int slotCount) {
        if (prefix == null || prefix.isBlank() || prefix.contains("{") || prefix.contains("}")) {
            throw new IllegalArgumentException("key prefix must be non-blank text without braces: " + prefix);
        }
        if (slotCount < 1) {
            throw new IllegalArgumentException("slot count must be at least 1: " + slotCount);
        }
        this.prefix = prefix;
        this.slotCount = slotCount;
    }

    public int slotCount() {
        return slotCount;
    }

    /** The slot a message id belongs to: stable across instances and restarts. Computed from the id, never the member. */
    public int slotOf(String messageId) {
        CRC32 crc = new CRC32();
        crc.update(messageId.getBytes(StandardCharsets.UTF_8));
        return (int) (crc.getValue() % slotCount);
    }

    /** ZSET: member = message member (the id, packed or verbatim), score = due time (epoch ms). Waiting messages. */
    public String due(int slot) {
        return key(slot, "due");
    }

    /** ZSET: member = message member, score = lease deadline (epoch ms). Claimed, not yet acknowledged. */
    public String inFlight(int slot) {
        return key(slot, "inflight");
    }

    /**
     * HASH: field = message member, value = envelope bytes ({@link EnvelopeCodec}: version 3 in its stored form,
     * with codes from {@link #names(int)}; versions 1 and 2 in their own layout). Pending and in flight.
     */
    public String payloads(int slot) {
        return key(slot, "payloads");
    }

    /**
     * HASH: the slot's interned names, so that a stored payload carries two small codes instead of its target
     * and origin stem ({@link EnvelopeCodec}, stored form), and a packed member one instead of its id's stem (the
     * topic and topic id of a default Kafka id, {@code lua/lib/memberIds}): field {@code n:<name>} = code, {@code c:<code>} =
     * name, {@code next} = the last code handed out, {@code tag} = a byte drawn when the hash was created (a
     * payload and a packed member carry it, so one interned into a hash that was deleted since is not misread),
     * {@code stems} = how many codes were handed out for id stems (at most 1,000), {@code bytes} = the names' summed length.
     * Append-only: a code is never reassigned or deleted. Capped ({@link NameLimits}): past the cap a payload keeps its
     * names in full and an id stays verbatim, so producers' variety cannot grow it without bound.
     */
    public String names(int slot) {
        return key(slot, "names");
    }

    /** HASH: field = message member, value = failed delivery attempts so far (absent = 0). */
    public String attempts(int slot) {
        return key(slot, "attempts");
    }

    /**
     * HASH: field = message member, value = when its publishes started failing (epoch ms, Redis's clock): the time of its first
     * failed publish. Retries are bounded by this age ({@code bridge.retry.max-age-ms}), not by a count. Absent for a message
     * that has not failed; deleted with the message.
     */
    public String failingSince(int slot) {
        return key(slot, "failing-since");
    }

    /**
     * HASH: field = claimer id ({@code <instance id>/<random>}, one per dispatcher), value = {@code "<round> <lease deadline> ..."}: what that claimer's
     * latest claim round leased in this slot, for {@code releaseClaim.lua} to give back when the claim's answer never arrived.
     * About one field per running dispatcher ({@code claim.lua} drops records whose leases have all passed).
     */
    public String claims(int slot) {
        return key(slot, "claims");
    }

    /**
     * HASH: field = message member, value = its due time (epoch ms) before the bridge first moved its score (a target over its
     * rate limit, a retry, a message given back): {@code x-delay-due-at} and lateness count from it. Only messages whose score
     * was moved have a field; deleted with the message.
     */
    public String originalDue(int slot) {
        return key(slot, "original-due");
    }

    /**
     * HASH: the token bucket of a configured target pattern ({@code bridge.targets.<name>.*}), shared by every instance: field
     * {@code tokens} = tokens left, {@code at} = when counted (epoch ms, Redis's clock); expires once full. Outside the slots,
     * under a hash tag of its own, so its script touches one Redis Cluster hash slot.
     */
    public String tokenBucket(String patternName) {
        if (patternName.contains("{") || patternName.contains("}")) {
            throw new IllegalArgumentException("a target pattern's name has no braces: " + patternName);
        }
        return prefix + ":{" + prefix + ":bucket:" + patternName + "}:tokens";
    }

    /**
     * ZSET: member = {@code "<claimer id> <lease deadline> <claimed at> <latest due>"}, score = that lease deadline: which
     * claimer took the messages leased under each deadline of this slot, when (Redis's clock), and the latest due time among
     * them. One entry per claim call that leased anything, dropped once its deadline has passed (by claims and the reaper); {@code takeBackLeases.lua}
     * reads it to give back the leases of a dead process of the same instance id.
     */
    public String leaseClaimers(int slot) {
        return key(slot, "lease-claimers");
    }

    /** ZSET: member = message member, score = delivery time (epoch ms). Ids delivered within the dedupe window. */
    public String delivered(int slot) {
        return key(slot, "delivered");
    }

    /** ZSET: member = message member, score = cancel time (epoch ms). Cancelled ids (early cancels too), for the cancel window. */
    public String cancelled(int slot) {
        return key(slot, "cancelled");
    }

    /**
     * The prefix of the slot's group indexes: {@code <prefix><group name>} is a ZSET, member = message member, score = due
     * time as scheduled or rescheduled, of the slot's pending and in-flight messages with that {@code x-group}
     * ({@code lua/lib/groups}). The scripts append the group name, read from the payload they hold, so a script takes this
     * prefix as a key of its slot; the name cannot leave the slot's hash tag, which comes before it.
     */
    public String groupIndexPrefix(int slot) {
        return key(slot, "group:");
    }

    /** ZSET: the index of one group in a slot ({@link #groupIndexPrefix(int)}). */
    public String groupIndex(int slot, String group) {
        return groupIndexPrefix(slot) + group;
    }

    /**
     * SET: the targets whose messages this slot's claims park instead of leasing ({@code lua/lib/parked}): every parked or
     * paused target, written into every slot by {@code store/parking/ParkingStore}.
     */
    public String parkedTargets(int slot) {
        return key(slot, "parked-targets");
    }

    /**
     * The prefix of the slot's parked indexes: {@code <prefix><target>} is a ZSET, member = message member, score = due
     * time, of the target's parked messages in this slot ({@code lua/lib/parked}). The scripts append the target, as they
     * do a group name, so it cannot leave the slot's hash tag.
     */
    public String parkedIndexPrefix(int slot) {
        return key(slot, "parked:");
    }

    /** SET: members that the next claim of each leases instead of parking: a parked target's probe, its expired messages. */
    public String parkingExemptions(int slot) {
        return key(slot, "parking-exempt");
    }

    /**
     * HASH: field = target, value = its parking state ({@code store/parking/TargetState}): every parked, paused or returning
     * target, for every instance. Outside the slots, under a hash tag of its own.
     */
    public String targetStates() {
        return prefix + ":{" + prefix + ":targets}:states";
    }

    /**
     * STRING: the instance whose turn it is to probe parked targets, expire their oldest messages and return the backlog of
     * those that answer again, expiring unless renewed: one instance does that work at a time. Beside {@link #targetStates()}.
     */
    public String parkingTurn() {
        return prefix + ":{" + prefix + ":targets}:turn";
    }

    /** HASH: field = message id, value = dead-letter record bytes ({@code deadletter/DeadLetterCodec}). */
    public String deadLetters(int slot) {
        return key(slot, "dead");
    }

    /** ZSET: member = message id, score = time it was dead-lettered (epoch ms). Bounded by count, age and bytes. */
    public String deadLetterIndex(int slot) {
        return key(slot, "dead-index");
    }

    /** STRING: the sum of the lengths of the slot's dead-letter records, which the byte bound is checked against. */
    public String deadLetterBytes(int slot) {
        return key(slot, "dead-bytes");
    }

    /**
     * STRING: the readiness write probe of one instance (its time, expiring within a minute). Outside the slots: any
     * master may hold it, and no script reads it.
     */
    public String healthProbe(String instanceId) {
        return prefix + ":health:" + instanceId;
    }

    /**
     * STRING: the token of the process that last claimed this instance id ({@code health/InstanceIdGuard}), expiring
     * unless renewed. Outside the slots, like the health probe.
     */
    public String instanceIdHolder(String instanceId) {
        return prefix + ":instance:" + instanceId;
    }

    private String key(int slot, String name) {
        if (slot < 0 || slot >= slotCount) {
            throw new IllegalArgumentException("slot " + slot + " outside 0.." + (slotCount - 1));
        }
        return prefix + ":{" + prefix + ":" + slot + "}:" + name;
    }
}
