package io.github.redisdelaybridge.store.connection;

import io.lettuce.core.api.StatefulRedisConnection;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How many replicas each master the bridge writes to has connected now, read from the master itself ({@code INFO
 * replication}: the replicas in state {@code online}) on the connection the barrier waits on. With
 * {@code bridge.redis.wait-replicas=auto} that is what a batch waits for, so durability follows the topology: after a
 * failover to a master without replicas, batches are acknowledged again at once (unless {@code bridge.redis.min-replicas}
 * forbids it), and a replica that attaches is waited for within a second.
 *
 * <p>Cheap: a master's count is read again only when it is older than {@link #READING_TTL_MS}, when the connection to it
 * was re-established (its identity changed), after a {@code WAIT} came back short or the floor held a batch, and on every
 * server check and reconnect ({@link DurabilityBarrier#refreshReplicas}); never once per batch.
 *
 * <p>The expected count is the configured number, or with {@code auto} the most replicas a master has had connected since
 * the bridge started (at least the floor): a master below it is said in a warning (at most once a minute per master, and
 * once when it is back), and in the gauges the listener receives.
 */
public final class ConnectedReplicas {

    private static final Logger LOG = LoggerFactory.getLogger(ConnectedReplicas.class);
    /** How long a count read from a master is used before it is read again. */
    static final long READING_TTL_MS = 1_000;
    private static final long WARN_EVERY_MS = 60_000;

    /** One master's replicas, for gauges: {@code master} is its host:port as the master itself reports the connection. */
    public record MasterReplicas(String master, int connected, int expected) {
    }

    /** What was read on one connection: its identity ({@link DurabilityBarrier#connectionIdentity}) and the replicas. */
    record Reading(String identity, String master, int replicas, long readAtMs) {
    }

    private final DurabilitySettings settings;
    private final LongSupplier clock;
    private final Map<String, Reading> byMaster = new ConcurrentHashMap<>();
    private final Map<String, Long> warnedAt = new ConcurrentHashMap<>();
    private volatile int mostSeen;
    private volatile Consumer<List<MasterReplicas>> listener = counts -> { };

    ConnectedReplicas(DurabilitySettings settings, LongSupplier clock) {
        this.settings = settings;
        this.clock = clock;
    }

    /** Receives every master's counts whenever one was read (gauges). */
    public void onChange(Consumer<List<MasterReplicas>> listener) {
        this.listener = listener;
        listener.accept(snapshot());
    }

    /** The replicas to expect of every master: the configured number, or the most seen since start (at least the floor). */
    public int expected() {
        return settings.waitsForEveryConnectedReplica() ? Math.max(settings.minReplicas(), mostSeen) : settings.waitReplicas();
    }

    public List<MasterReplicas> snapshot() {
        int expected = expected();
        List<MasterReplicas> masters = new ArrayList<>();
        byMaster.values().forEach(r -> masters.add(new MasterReplicas(r.master(), r.replicas(), expected)));
        masters.sort(Comparator.comparing(MasterReplicas::master));
        return masters;
    }

    /** The count read on the connection known as {@code identity}, if read recently enough; else null (read it first). */
    Integer recent(String identity) {
        Reading reading = byMaster.get(masterOf(identity));
        if (reading == null || !reading.identity().equals(identity) || clock.getAsLong() - reading.readAtMs() >= READING_TTL_MS) {
            return null;
        }
        return reading.replicas();
    }

    /** Reads the count on {@code master} (one {@code CLIENT INFO} and one {@code INFO replication}, pipelined), and keeps it. */
    CompletableFuture<Reading> read(StatefulRedisConnection<byte[], byte[]> master) {
        CompletableFuture<String> client = master.async().clientInfo().toCompletableFuture();
        CompletableFuture<String> replication = master.async().info("replication").toCompletableFuture();
        return client.thenCombine(replication, (clientInfo, info) -> {
            String identity = DurabilityBarrier.connectionIdentity(clientInfo);
            Reading reading = new Reading(identity, masterOf(identity), onlineReplicas(info), clock.getAsLong());
            keep(reading);
            return reading;
        });
    }

    /**
     * True when every master was read within {@link #READING_TTL_MS} and none has a replica connected: {@code auto} then
     * has nothing to wait for, and a batch needs no fence (one node with no replica costs no more than wait-replicas=0).
     */
    boolean noneConnectedAnywhere() {
        long now = clock.getAsLong();
        return !byMaster.isEmpty() && byMaster.values().stream().allMatch(r -> r.replicas() == 0 && now - r.readAtMs() < READING_TTL_MS);
    }

    /** Every master's count is read again before it is used next (a connection opened: perhaps to another master). */
    void forgetAll() {
        byMaster.replaceAll((master, reading) -> new Reading(reading.identity(), master, reading.replicas(), Long.MIN_VALUE / 2));
    }

    /** After a full read of every master: the masters not among {@code current} are gone (failed over). */
    void keepOnly(List<Reading> current) {
        byMaster.keySet().retainAll(current.stream().map(Reading::master).toList());
        warnedAt.keySet().retainAll(byMaster.keySet());
        listener.accept(snapshot());
    }

    /** The count of the master behind {@code identity} is read again before it is used next (a short WAIT, a held batch). */
    void forget(String identity) {
        byMaster.computeIfPresent(masterOf(identity), (master, reading) -> reading.identity().equals(identity)
                ? new Reading(reading.identity(), master, reading.replicas(), Long.MIN_VALUE / 2) : reading);
    }

    private void keep(Reading reading) {
        Reading before = byMaster.put(reading.master(), reading);
        if (reading.replicas() > mostSeen) {
            mostSeen = reading.replicas();
        }
        int expected = expected();
        if (reading.replicas() < expected) {
            Long warned = warnedAt.get(reading.master());
            long now = clock.getAsLong();
            if (warned == null || now - warned >= WARN_EVERY_MS) {
                warnedAt.put(reading.master(), now);
                LOG.warn("Redis {} has {} replica(s) connected, fewer than the {} expected (bridge.redis.wait-replicas={}, min-replicas={}): {}",
                        reading.master(), reading.replicas(), expected, settings.waitReplicasCode(), settings.minReplicas(), cost(reading));
            }
        } else if (warnedAt.remove(reading.master()) != null) {
            LOG.info("Redis {} has {} replica(s) connected again", reading.master(), reading.replicas());
        }
        if (before == null || before.replicas() != reading.replicas()) {
            listener.accept(snapshot());
        }
    }

    private String cost(Reading reading) {
        if (reading.replicas() < settings.replicasRequired()) {
            return "inbound batches written to it are held, unacknowledged, until enough replicas are connected";
        }
        return reading.replicas() == 0
                ? "batches are acknowledged once it has them in memory, so its crash before a replica is back loses them"
                : "batches are acknowledged once its " + reading.replicas() + " replica(s) have them";
    }

    /** The server's address from a connection identity ({@code laddr=}), or the identity itself when it names none. */
    static String masterOf(String identity) {
        for (String field : identity.split(" ")) {
            if (field.startsWith("laddr=")) {
                return field.substring("laddr=".length());
            }
        }
        return identity;
    }

    /** Replicas in state online in the text of {@code INFO replication} ({@code slave0:ip=...,state=online,...}). */
    static int onlineReplicas(String info) {
        int online = 0;
        for (String line : info.split("\r?\n")) {
            if (line.startsWith("slave") && line.contains(":") && line.contains("state=online")) {
                online++;
            }
        }
        return online;
    }
}
