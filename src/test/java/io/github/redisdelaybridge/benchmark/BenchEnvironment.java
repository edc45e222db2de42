package io.github.redisdelaybridge.benchmark;

import io.github.redisdelaybridge.store.Keys;
import io.github.redisdelaybridge.store.connection.RedisConnection;
import io.github.redisdelaybridge.testkit.BridgeInstance;
import io.github.redisdelaybridge.testkit.EmbeddedKafka;
import io.github.redisdelaybridge.testkit.RedisServerProcess;
import io.github.redisdelaybridge.testkit.StoreFaces;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;
import kafka.testkit.KafkaClusterTestKit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * What every scenario runs against: one Kafka (embedded broker, or a given one), one Redis (a dedicated
 * redis-server, or a given one), a load producer, an admin client, and helpers to start bridge
 * instances with their own key prefix and topics. The processes scenario makes a second one on the same
 * Redis, pointed at a Kafka and a load generator in processes of their own ({@link SeparateProcesses}).
 */
final class BenchEnvironment implements AutoCloseable {

    static final int PAYLOAD_BYTES = 100;

    final BenchOptions options;
    final String bootstrap;
    final String redisUri;
    /** How the benchmark's Redis is scheduled, for the table's machine line. */
    final String redisPriority;
    final String runId;
    private final KafkaClusterTestKit kafka;
    /** The redis-server this environment started and stops, or null. */
    private final RedisServerProcess redisProcess;
    /** The pid of the benchmark's own redis-server, or -1 when Redis was given with --redis. */
    private final long redisPid;
    private final LoadGenerator load;
    private final Admin admin;
    private final KafkaProducer<byte[], byte[]> producer;
    private final RedisClient redisClient;
    private final StatefulRedisConnection<String, String> redisConnection;
    private final StandaloneRedis standaloneRedis;
    /** Processes of this setting that are JVMs of their own, whose JIT compilers a precision warm-up waits for too. */
    private final List<CpuMeter.Process> jvmsAlongside;
    private final byte[] payload = newPayload();
    private final Map<String, Integer> partitionCounts = new java.util.concurrent.ConcurrentHashMap<>();

    BenchEnvironment(BenchOptions options) throws Exception {
        this.options = options;
        this.runId = Long.toString(System.currentTimeMillis() / 1000 % 1_000_000, 36);
        if (options.kafka() != null) {
            this.kafka = null;
            this.bootstrap = options.kafka();
        } else {
            this.kafka = EmbeddedKafka.start();
            this.bootstrap = kafka.bootstrapServers();
        }
        if (options.redis() != null) {
            this.redisProcess = null;
            this.redisUri = options.redis();
            this.redisPriority = "Redis given with --redis (priority as found)";
        } else {
            new File("target").mkdirs();
            // no persistence, so that memory and SLOWLOG figures are clean and the shared Redis on 6379 is not disturbed
            this.redisProcess = new RedisServerProcess("benchmark", false).start();
            Runtime.getRuntime().addShutdownHook(new Thread(this::stopRedis, "benchmark-redis-stop"));
            this.redisUri = redisProcess.uri();
            this.redisPriority = options.realtimeRedis() ? RedisCpuPriority.raise(List.of(redisProcess.pid()))
                    : "Redis at normal CPU priority (--redis-priority normal)";
        }
        this.redisPid = redisProcess == null ? -1 : redisProcess.pid();
        this.admin = Admin.create(Map.of("bootstrap.servers", bootstrap));
        this.producer = loadProducer(bootstrap);
        this.load = new InJvmLoad(bootstrap, producer, payload);
        this.redisClient = RedisClient.create(redisUri);
        this.redisConnection = redisClient.connect();
        this.standaloneRedis = new StandaloneRedis(redisUri, slots(), redisConnection, redisPid, List.of());
        this.jvmsAlongside = List.of();
    }

    /**
     * The benchmark's Redis and run, another Kafka and load generator: CPU is also measured for {@code alongside}
     * (the processes that run them). Closing it stops neither that Redis nor those processes.
     */
    BenchEnvironment(BenchEnvironment sameRedis, String bootstrap, LoadGenerator load, List<CpuMeter.Process> alongside) {
        this.options = sameRedis.options;
        this.runId = sameRedis.runId;
        this.kafka = null;
        this.bootstrap = bootstrap;
        this.redisProcess = null;
        this.redisPid = sameRedis.redisPid;
        this.redisUri = sameRedis.redisUri;
        this.redisPriority = sameRedis.redisPriority;
        this.admin = Admin.create(Map.of("bootstrap.servers", bootstrap));
        this.producer = loadProducer(bootstrap);
        this.load = load;
        this.redisClient = RedisClient.create(redisUri);
        this.redisConnection = redisClient.connect();
        this.standaloneRedis = new StandaloneRedis(redisUri, slots(), redisConnection, redisPid, alongside);
        this.jvmsAlongside = List.copyOf(alongside);
    }

    /** The JVMs of this setting besides the benchmark's own (the processes scenario's broker and load generator); none in one JVM. */
    List<CpuMeter.Process> jvmsAlongside() {
        return jvmsAlongside;
    }

    /** The load producer: acks from all replicas, batches of up to 256 KiB that linger 2 ms. */
    static KafkaProducer<byte[], byte[]> loadProducer(String bootstrap) {
        return loadProducer(bootstrap, 1024 * 1024);
    }

    /** The load producer, sending records of up to {@code maxRecordBytes} (Kafka's default: 1 MiB). */
    static KafkaProducer<byte[], byte[]> loadProducer(String bootstrap, int maxRecordBytes) {
        Properties p = new Properties();
        p.put(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, maxRecordBytes);
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.LINGER_MS_CONFIG, 2);
        p.put(ProducerConfig.BATCH_SIZE_CONFIG, 256 * 1024);
        p.put(ProducerConfig.BUFFER_MEMORY_CONFIG, 128L * 1024 * 1024);
        p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        return new KafkaProducer<>(p);
    }

    /** A 100-byte payload (the same bytes every time: content does not matter here). */
    static byte[] newPayload() {
        byte[] payload = new byte[PAYLOAD_BYTES];
        for (int i = 0; i < payload.length; i++) {
            payload[i] = (byte) ('a' + i % 26);
        }
        return payload;
    }

    /**
     * This JVM's producer on this environment's Kafka, in every setting: for warm-up records and the scenarios that
     * only run in one JVM; the processes scenario's timed loads go through {@link #load()}.
     */
    KafkaProducer<byte[], byte[]> producer() {
        return producer;
    }

    /** Where the timed load of the ceiling, ingest and precision scenarios comes from. */
    LoadGenerator load() {
        return load;
    }

    Admin admin() {
        return admin;
    }

    /** A 100-byte payload (the same bytes every time: content does not matter here). */
    byte[] payload() {
        return payload;
    }

    RedisCommands<String, String> redis() {
        return redisConnection.sync();
    }

    /** The benchmark's one Redis as the bridges' store, with the slot count of --set bridge.redis.slots (default 1). */
    BridgeRedis standaloneRedis() {
        return standaloneRedis;
    }

    long redisPid() {
        return redisPid;
    }

    boolean dedicatedRedis() {
        return redisPid > 0;
    }

    CpuMeter cpu() {
        return standaloneRedis.cpu();
    }

    /** A topic name unique to this run. */
    String topic(String scenario, String name) {
        return "bench-" + runId + "-" + scenario + "." + name;
    }

    /** A key prefix unique to this run. */
    String prefix(String scenario) {
        return "bench-" + runId + "-" + scenario;
    }

    void createTopics(int partitions, String... topics) {
        createTopics(partitions, Map.of(), topics);
    }

    /** Topics with these topic settings (such as max.message.bytes), whatever the broker's defaults. */
    void createTopics(int partitions, Map<String, String> configs, String... topics) {
        List<NewTopic> newTopics = new ArrayList<>();
        for (String topic : topics) {
            newTopics.add(new NewTopic(topic, partitions, (short) 1).configs(configs));
        }
        try {
            admin.createTopics(newTopics).all().get();
        } catch (InterruptedException | ExecutionException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Records in a topic (sum of end offsets over its partitions). */
    long recordsIn(String topic) {
        try {
            Integer partitions = partitionCounts.get(topic);
            if (partitions == null) {
                partitions = admin.describeTopics(List.of(topic)).allTopicNames().get().get(topic).partitions().size();
                partitionCounts.put(topic, partitions);
            }
            Map<TopicPartition, OffsetSpec> request = new HashMap<>();
            for (int p = 0; p < partitions; p++) {
                request.put(new TopicPartition(topic, p), OffsetSpec.latest());
            }
            long sum = 0;
            for (ListOffsetsResult.ListOffsetsResultInfo info : admin.listOffsets(request).all().get().values()) {
                sum += info.offset();
            }
            return sum;
        } catch (InterruptedException | ExecutionException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Offsets a consumer group has committed on a topic, summed over partitions. */
    long committed(String group, String topic) {
        try {
            long sum = 0;
            for (Map.Entry<TopicPartition, OffsetAndMetadata> e
                    : admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get().entrySet()) {
                if (e.getKey().topic().equals(topic) && e.getValue() != null) {
                    sum += e.getValue().offset();
                }
            }
            return sum;
        } catch (InterruptedException | ExecutionException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * True when a consumer group is stable with {@code members} members (consumers beyond the partition count
     * stay idle) and all {@code partitions} partitions assigned.
     */
    boolean groupStable(String group, int members, int partitions) {
        try {
            var description = admin.describeConsumerGroups(List.of(group)).all().get().get(group);
            return description.state() == org.apache.kafka.common.ConsumerGroupState.STABLE
                    && description.members().size() == members
                    && description.members().stream().mapToInt(m -> m.assignment().topicPartitions().size()).sum() == partitions;
        } catch (InterruptedException | ExecutionException e) {
            return false;
        }
    }

    /** Settings of one bridge instance for a scenario: own key prefix, inbound topic and consumer group. */
    Map<String, String> bridgeSettings(String scenario, String inboundTopic) {
        Map<String, String> s = new LinkedHashMap<>();
        s.put("bridge.kafka.bootstrap-servers", bootstrap);
        s.put("bridge.redis.uri", redisUri);
        s.put("bridge.redis.key-prefix", prefix(scenario));
        s.put("bridge.redis.slots", "1");
        s.put("bridge.kafka.inbound-topics", inboundTopic);
        s.put("bridge.kafka.group-id", prefix(scenario) + "-bridge");
        s.put("bridge.dead-letter.kafka-topic", topic(scenario, "dlq"));
        s.putAll(options.bridgeOverrides());
        return s;
    }

    /** Kafka consumers per bridge instance under these settings: {@code bridge.kafka.inbound-consumers}, or its default. */
    static int consumersPerInstance(Map<String, String> settings) {
        return Integer.parseInt(setting(settings, "bridge.kafka.inbound-consumers"));
    }

    /** A bridge setting as these settings give it, or else its default in config/application.properties. */
    static String setting(Map<String, String> settings, String key) {
        String given = settings.get(key);
        if (given != null) {
            return given.strip();
        }
        Properties defaults = new Properties();
        try (var in = java.nio.file.Files.newBufferedReader(java.nio.file.Path.of("config", "application.properties"))) {
            defaults.load(in);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return defaults.getProperty(key).strip();
    }

    List<BridgeInstance> startBridges(Map<String, String> settings, int instances) {
        List<BridgeInstance> bridges = new ArrayList<>();
        for (int i = 0; i < instances; i++) {
            Map<String, String> own = new LinkedHashMap<>(settings);
            own.put("bridge.instance-id", "bench-" + i);
            // each instance its own HTTP port: on the shared default port, the second one's server fails to bind
            String httpPort = Integer.toString(io.github.redisdelaybridge.testkit.FreePorts.next());
            own.put("camel.server.port", httpPort);
            own.put("camel.management.port", httpPort);
            bridges.add(BridgeInstance.start(own));
        }
        return bridges;
    }

    static void stopBridges(List<BridgeInstance> bridges) {
        for (BridgeInstance bridge : bridges) {
            try {
                bridge.close();
            } catch (RuntimeException e) {
                System.err.println("bridge did not stop cleanly: " + e);
            }
        }
    }

    /** Due-set slots of the bridges: 1 (the default) unless --set bridge.redis.slots=N. */
    int slots() {
        return Integer.parseInt(options.bridgeOverrides().getOrDefault("bridge.redis.slots", "1"));
    }

    /** The bridges' store, with their slot count. */
    StoreHandle store(String prefix) {
        return standaloneRedis.store(prefix);
    }

    /** The bridge's own store (its Lua scripts, its key layout) on a connection of the benchmark's. */
    StoreHandle store(String prefix, int slots) {
        return StoreHandle.open(new RedisConnection(redisUri, Duration.ofSeconds(30)), new Keys(prefix, slots));
    }

    record StoreHandle(RedisConnection connection, StoreFaces store, Keys keys) implements AutoCloseable {

        /** The bridge's StoreFaces on {@code connection}, with limits no benchmark message comes near. */
        static StoreHandle open(RedisConnection connection, Keys keys) {
            return new StoreHandle(connection, StoreFaces.over(connection.async(), keys,
                    new io.github.redisdelaybridge.store.StoreLimits(365L * 24 * 3600 * 1000, 24L * 3600 * 1000, 24L * 3600 * 1000, 100_000, 7L * 24 * 3600 * 1000)), keys);
        }

        @Override
        public void close() {
            connection.close();
        }
    }

    /** Messages waiting in the due sets of a key prefix. */
    long pending(Keys keys) {
        return standaloneRedis.pending(keys);
    }

    /** Deletes (UNLINK, so large keys go in the background) every key under a prefix. */
    void deleteKeys(String prefix) {
        standaloneRedis.deleteKeys(prefix);
    }

    /** Script calls (EVALSHA) Redis has run since its start or its last CONFIG RESETSTAT, and their run time in Redis. */
    record ScriptCalls(long calls, long micros) {

        /** "1,234 script calls/s in Redis, 56 us each" between {@code before} and this, {@code ms} apart. */
        String since(ScriptCalls before, long ms) {
            long n = calls - before.calls;
            return String.format("%,.0f script calls/s in Redis, %.0f us each", n * 1000.0 / Math.max(1, ms),
                    n == 0 ? 0.0 : (micros - before.micros) / (double) n);
        }
    }

    ScriptCalls scriptCalls() {
        for (String line : redis().info("commandstats").split("\r?\n")) {
            if (line.startsWith("cmdstat_evalsha:")) {
                long calls = 0;
                long micros = 0;
                for (String field : line.substring(line.indexOf(':') + 1).split(",")) {
                    if (field.startsWith("calls=")) {
                        calls = Long.parseLong(field.substring(6));
                    } else if (field.startsWith("usec=")) {
                        micros = Long.parseLong(field.substring(5));
                    }
                }
                return new ScriptCalls(calls, micros);
            }
        }
        return new ScriptCalls(0, 0);
    }

    long usedMemory() {
        return infoField("memory", "used_memory");
    }

    long infoField(String section, String field) {
        for (String line : redis().info(section).split("\r?\n")) {
            if (line.startsWith(field + ":")) {
                return Long.parseLong(line.substring(field.length() + 1).trim());
            }
        }
        throw new IllegalStateException("INFO " + section + " has no " + field);
    }

    /** Polls until the condition holds; returns System.currentTimeMillis() of that moment, or -1 on timeout. */
    static long awaitMillis(BooleanSupplier condition, long timeoutMs, long pollMs) throws InterruptedException {
        long deadline = System.currentTimeMillis() + timeoutMs;
        while (true) {
            if (condition.getAsBoolean()) {
                return System.currentTimeMillis();
            }
            if (System.currentTimeMillis() > deadline) {
                return -1;
            }
            Thread.sleep(pollMs);
        }
    }

    /**
     * Polls a count until it reaches {@code expected}; returns System.currentTimeMillis() of that moment, or -1
     * once the count has not grown for {@code stallMs}: a slow run that still progresses is waited for, a
     * stuck one (messages lost) is reported without waiting minutes.
     */
    static long awaitCount(LongSupplier count, long expected, long stallMs, long pollMs) throws InterruptedException {
        long last = -1;
        long lastGrowth = System.currentTimeMillis();
        while (true) {
            long now = count.getAsLong();
            if (now >= expected) {
                return System.currentTimeMillis();
            }
            if (now > last) {
                last = now;
                lastGrowth = System.currentTimeMillis();
            } else if (System.currentTimeMillis() - lastGrowth > stallMs) {
                return -1;
            }
            Thread.sleep(pollMs);
        }
    }

    static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public void close() {
        producer.close(Duration.ofSeconds(5));
        admin.close();
        redisConnection.close();
        redisClient.shutdown(Duration.ZERO, Duration.ofSeconds(1));
        if (kafka != null) {
            try {
                kafka.close();
            } catch (Exception e) {
                System.err.println("embedded Kafka did not stop cleanly: " + e);
            }
        }
        stopRedis();
    }

    /** Also on Ctrl-C (a shutdown hook), so that an interrupted run leaves no redis-server behind. */
    private void stopRedis() {
        if (redisProcess != null) {
            try {
                redisProcess.close();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
