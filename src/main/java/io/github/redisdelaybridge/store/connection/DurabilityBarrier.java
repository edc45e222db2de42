package io.github.redisdelaybridge.store.connection;

import io.github.redisdelaybridge.store.Keys;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.output.ArrayOutput;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.ProtocolKeyword;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * Holds a batch's upstream acknowledgement until Redis has made its writes as durable as promised
 * ({@link DurabilitySettings}): {@code WAIT numreplicas timeout} (replicas received them) and, on Redis 7.2+
 * where the master's fsync is promised, {@code WAITAOF 1 0 timeout} (the master's append-only file has them).
 * On Redis before 7.2 the fsync can only come from {@code appendfsync always}, which the server check verifies;
 * nothing is sent for it.
 *
 * <p>{@code WAIT} and {@code WAITAOF} cover the earlier writes <em>of the connection they are sent on</em>.
 * So they go to the connection each written slot's writes went through ({@link RedisConnection#masterConnectionFor}),
 * and a batch is fenced: {@link #open} reads each master connection's identity ({@code CLIENT INFO}: client id and
 * both addresses) before the writes, {@link Fence#confirm} reads it again after the wait. Had Lettuce reconnected
 * in between (to a new master after a failover, or to the same one), the wait would have covered nothing the batch
 * wrote, and may even have been answered at once by a server the writes never reached: confirm then answers
 * false, and the caller writes the batch again (the writes are idempotent).
 *
 * <p>With {@code wait-replicas=auto} the number a {@code WAIT} asks for is each master's connected replicas now
 * ({@link ConnectedReplicas}); a master with fewer than {@code min-replicas} holds the batch, as a short {@code WAIT} does.
 */
public final class DurabilityBarrier {

    /**
     * What to send after a batch's writes, decided from the settings and what the server check found.
     *
     * @param waitReplicas a number, or {@link DurabilitySettings#EVERY_CONNECTED_REPLICA}: each master's, read from it
     */
    record Plan(boolean waitAof, int waitReplicas, int minReplicas) {
        boolean sendsNothing() {
            return !waitAof && waitReplicas == 0;
        }

        boolean waitsForEveryConnectedReplica() {
            return waitReplicas == DurabilitySettings.EVERY_CONNECTED_REPLICA;
        }
    }

    private static final ProtocolKeyword WAITAOF = new ProtocolKeyword() {
        private final byte[] bytes = "WAITAOF".getBytes(StandardCharsets.US_ASCII);

        @Override
        public byte[] getBytes() {
            return bytes;
        }

        @Override
        public String toString() {
            return "WAITAOF";
        }
    };

    private final RedisConnection redis;
    private final Keys keys;
    private final DurabilitySettings settings;
    private final ConnectedReplicas replicas;
    /** The read of every master's replicas under way, if any; and whether another was asked for meanwhile. */
    private CompletableFuture<Void> refreshing;
    private boolean refreshAgain;
    /** Null until the server check has said whether WAITAOF is wanted and available. */
    private volatile Plan plan;

    public DurabilityBarrier(RedisConnection redis, Keys keys, DurabilitySettings settings) {
        this.redis = redis;
        this.keys = keys;
        this.settings = settings;
        this.replicas = new ConnectedReplicas(settings, System::currentTimeMillis);
        this.plan = settings.localFsync() == DurabilitySettings.LocalFsync.FALSE ? plan(false) : null;
        if (redis != null) {
            // a reconnect may be to another master (a failover): its replicas are read at once, for the gauges and the log
            redis.onConnected(() -> {
                replicas.forgetAll();
                refreshReplicas();
            });
        }
    }

    private Plan plan(boolean waitAof) {
        return new Plan(waitAof, settings.waitReplicas(), settings.minReplicas());
    }

    /** A barrier that confirms at once: the writes count once the master answered (tests and tools). */
    public static DurabilityBarrier none() {
        return new DurabilityBarrier(null, null, DurabilitySettings.memoryOnly());
    }

    public DurabilitySettings settings() {
        return settings;
    }

    /** Every master's connected replicas, as last read. */
    public ConnectedReplicas replicas() {
        return replicas;
    }

    /**
     * Reads the connected replicas of every master the ingest connection writes to, and forgets masters it no longer
     * writes to; in the background (a failure leaves the counts as they were: batches read their master's count anyway).
     */
    public CompletableFuture<Void> refreshReplicas() {
        if (redis == null) {
            return CompletableFuture.completedFuture(null);
        }
        // a Cluster topology refresh opens a connection to every node: one read serves them all, and one more after it
        CompletableFuture<Void> current;
        synchronized (this) {
            if (refreshing != null) {
                refreshAgain = true;
                return refreshing;
            }
            current = readAllMasters();
            refreshing = current;
        }
        current.whenComplete((done, failed) -> {
            boolean again;
            synchronized (this) {
                refreshing = null;
                again = refreshAgain;
                refreshAgain = false;
            }
            if (again) {
                refreshReplicas();
            }
        });
        return current;
    }

    private CompletableFuture<Void> readAllMasters() {
        return redis.masterConnections().thenCompose(masters -> {
            List<CompletableFuture<ConnectedReplicas.Reading>> readings = new ArrayList<>();
            masters.forEach(master -> readings.add(replicas.read(master.connection())));
            return CompletableFuture.allOf(readings.toArray(CompletableFuture[]::new))
                    .thenAccept(done -> replicas.keepOnly(readings.stream().map(CompletableFuture::join).toList()));
        }).exceptionally(failed -> null);
    }

    /**
     * Applies what the latest check of the masters found: {@code WAITAOF} is sent when every master supports it and
     * the fsync is promised for it (with {@code auto}: every master runs an append-only file).
     */
    public void serversChecked(List<RedisServerFacts> masters) {
        boolean waitAof = !masters.isEmpty() && masters.stream().allMatch(m -> m.supportsWaitAof() && settings.fsyncPromised(m.aofEnabled()));
        plan = plan(waitAof);
        refreshReplicas();
    }

    /** What a batch's confirmation sends, in words for log lines; null before the first server check. */
    public String describePlan() {
        Plan current = plan;
        if (current == null) {
            return null;
        }
        List<String> commands = new ArrayList<>();
        if (current.waitAof()) {
            commands.add("WAITAOF 1 0 " + settings.waitTimeoutMs());
        }
        if (current.waitsForEveryConnectedReplica()) {
            commands.add("WAIT <every connected replica" + (current.minReplicas() > 0 ? ", at least " + current.minReplicas() : "") + "> "
                    + settings.waitTimeoutMs());
        } else if (current.waitReplicas() > 0) {
            commands.add("WAIT " + current.waitReplicas() + " " + settings.waitTimeoutMs());
        }
        return commands.isEmpty() ? "nothing (acknowledged once the master has the writes)" : String.join(" and ", commands);
    }

    /** Before a batch writes to {@code slots}: notes which connection each of their masters is reached through. */
    public CompletableFuture<Fence> open(Collection<Integer> slots) {
        Plan current = plan;
        if (current == null) {
            return CompletableFuture.failedFuture(new DurabilityNotConfirmedException(
                    "the Redis servers have not been checked yet, so it is not known how to confirm durable writes"));
        }
        if (current.sendsNothing() || (current.waitsForEveryConnectedReplica() && !current.waitAof() && current.minReplicas() == 0
                && replicas.noneConnectedAnywhere())) {
            return CompletableFuture.completedFuture(Fence.NONE);
        }
        List<CompletableFuture<StatefulRedisConnection<byte[], byte[]>>> lookups = new ArrayList<>();
        for (int slot : slots) {
            lookups.add(redis.masterConnectionFor(keys.due(slot).getBytes(StandardCharsets.UTF_8)));
        }
        return CompletableFuture.allOf(lookups.toArray(CompletableFuture[]::new)).thenCompose(done -> {
            Map<StatefulRedisConnection<byte[], byte[]>, Boolean> distinct = new IdentityHashMap<>();
            lookups.forEach(lookup -> distinct.put(lookup.join(), Boolean.TRUE));
            List<CompletableFuture<Fence.Post>> posts = new ArrayList<>();
            for (StatefulRedisConnection<byte[], byte[]> master : distinct.keySet()) {
                posts.add(identity(master).thenApply(identity -> new Fence.Post(master, identity)));
            }
            return CompletableFuture.allOf(posts.toArray(CompletableFuture[]::new))
                    .thenApply(all -> new Fence(this, current, posts.stream().map(CompletableFuture::join).toList()));
        });
    }

    private static CompletableFuture<String> identity(StatefulRedisConnection<byte[], byte[]> master) {
        return master.async().clientInfo().toCompletableFuture().thenApply(DurabilityBarrier::connectionIdentity);
    }

    /** {@code id=7 addr=127.0.0.1:51234 laddr=127.0.0.1:6379 ...} -> the fields that tell one TCP connection from another. */
    static String connectionIdentity(String clientInfo) {
        StringBuilder identity = new StringBuilder();
        for (String field : clientInfo.strip().split(" ")) {
            if (field.startsWith("id=") || field.startsWith("addr=") || field.startsWith("laddr=")) {
                identity.append(field).append(' ');
            }
        }
        return identity.toString().strip();
    }

    private CompletableFuture<Boolean> confirm(Plan used, Fence.Post post) {
        if (!used.waitsForEveryConnectedReplica()) {
            return confirm(used, post, used.waitReplicas());
        }
        Integer known = replicas.recent(post.identity());
        if (known != null) {
            return confirm(used, post, known);
        }
        return replicas.read(post.master()).thenCompose(reading -> confirm(used, post, reading.replicas()));
    }

    /** Confirms with {@code waitReplicas}: the number configured, or the master's connected replicas. */
    private CompletableFuture<Boolean> confirm(Plan used, Fence.Post post, int waitReplicas) {
        StatefulRedisConnection<byte[], byte[]> master = post.master();
        long timeoutMs = settings.waitTimeoutMs();
        List<CompletableFuture<?>> waits = new ArrayList<>();
        if (waitReplicas < used.minReplicas()) {
            replicas.forget(post.identity());
            waits.add(CompletableFuture.failedFuture(new DurabilityNotConfirmedException("Redis " + ConnectedReplicas.masterOf(post.identity())
                    + " has " + waitReplicas + " replica(s) connected, fewer than bridge.redis.min-replicas=" + used.minReplicas()
                    + ": the batch is held until enough replicas are connected")));
        }
        if (used.waitAof()) {
            CommandArgs<byte[], byte[]> args = new CommandArgs<>(ByteArrayCodec.INSTANCE).add(1).add(0).add(timeoutMs);
            waits.add(master.async().dispatch(WAITAOF, new ArrayOutput<>(ByteArrayCodec.INSTANCE), args).toCompletableFuture()
                    .thenAccept(reply -> {
                        long local = (Long) reply.get(0);
                        if (local < 1) {
                            throw new DurabilityNotConfirmedException("WAITAOF 1 0 " + timeoutMs + ": the master did not fsync its"
                                    + " append-only file within " + timeoutMs + " ms");
                        }
                    }));
        }
        if (waitReplicas >= used.minReplicas() && waitReplicas > 0) {
            waits.add(master.async().waitForReplication(waitReplicas, timeoutMs).toCompletableFuture().thenAccept(acknowledged -> {
                if (acknowledged < waitReplicas) {
                    // a replica gone or lagging: with auto, its master's count is read again before the next try
                    replicas.forget(post.identity());
                    throw new DurabilityNotConfirmedException("WAIT " + waitReplicas + " " + timeoutMs + ": " + acknowledged + " of "
                            + waitReplicas + " replicas acknowledged the writes within " + timeoutMs + " ms");
                }
            }));
        }
        CompletableFuture<String> after = identity(master);
        // a changed connection answers false even when its wait failed: no wait on it can ever confirm the batch's writes
        return CompletableFuture.allOf(waits.toArray(CompletableFuture[]::new)).handle((ok, failure) -> failure)
                .thenCombine(after, (failure, identity) -> {
                    if (!identity.equals(post.identity())) {
                        return false;
                    }
                    if (failure != null && isReplicaNow(failure)) {
                        // a Cluster failover this connection's topology had not seen when the batch began: the node taken for
                        // the master is a replica (the old master, back). Its WAIT can never confirm: ask for the topology
                        // again and have the batch written again, to the masters the new topology names.
                        redis.refreshTopology();
                        return false;
                    }
                    if (failure != null) {
                        throw failure instanceof CompletionException completion ? completion : new CompletionException(failure);
                    }
                    return true;
                });
    }

    /** {@code ERR WAIT cannot be used with replica instances}, and the like: the node is no longer a master. */
    static boolean isReplicaNow(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t.getMessage() != null && t.getMessage().contains("cannot be used with replica instances")) {
                return true;
            }
        }
        return false;
    }

    /** The connections a batch's writes go through, noted before the writes. */
    public static final class Fence {

        static final Fence NONE = new Fence(null, null, List.of());

        record Post(StatefulRedisConnection<byte[], byte[]> master, String identity) {
        }

        private final DurabilityBarrier barrier;
        private final Plan plan;
        private final List<Post> posts;

        private Fence(DurabilityBarrier barrier, Plan plan, List<Post> posts) {
            this.barrier = barrier;
            this.plan = plan;
            this.posts = posts;
        }

        /**
         * After the batch's writes: completes true once every master confirmed them; false when a connection was
         * re-established since {@link #open} (write the batch again); fails with {@link DurabilityNotConfirmedException}
         * when the replicas or the fsync did not confirm in time (confirm again: the connection still covers the writes).
         */
        public CompletableFuture<Boolean> confirm() {
            if (posts.isEmpty()) {
                return CompletableFuture.completedFuture(true);
            }
            List<CompletableFuture<Boolean>> confirmations = new ArrayList<>();
            for (Post post : posts) {
                confirmations.add(barrier.confirm(plan, post));
            }
            return CompletableFuture.allOf(confirmations.toArray(CompletableFuture[]::new))
                    .thenApply(done -> confirmations.stream().allMatch(CompletableFuture::join));
        }
    }
}
