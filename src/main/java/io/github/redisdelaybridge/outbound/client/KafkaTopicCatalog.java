package io.github.redisdelaybridge.outbound.client;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

/**
 * Which Kafka topics exist, from the brokers' metadata, asked without ever creating one. A producer's metadata
 * request allows automatic topic creation (the producer offers no setting against it), so on a broker with
 * {@code auto.create.topics.enable=true} a producer that sends to a topic creates it; the bridge asks here first
 * and sends only to topics that exist. An admin client's describe request does not create topics.
 *
 * <p>Answers are cached: a topic seen to exist for {@value #EXISTS_TTL_MS} ms (then re-checked in the background
 * while the cached answer still serves), a missing one for {@value #MISSING_TTL_MS} ms (so a topic created by an
 * operator is used within seconds). A topic not yet known costs one describe request, shared by every message that
 * asks meanwhile; nothing here blocks the caller. A describe that fails (broker unreachable) is not cached.
 */
public final class KafkaTopicCatalog implements AutoCloseable {

    static final long EXISTS_TTL_MS = 60_000;
    static final long MISSING_TTL_MS = 2_000;
    /** Topics remembered at most; beyond it the cache starts again (names come from producers' x-target). */
    private static final int MAX_TOPICS = 10_000;

    private record Answer(boolean exists, long checkedAt) {
    }

    private final Admin admin;
    private final Map<String, Answer> answers = new ConcurrentHashMap<>();
    private final Map<String, CompletableFuture<Boolean>> asking = new ConcurrentHashMap<>();

    public KafkaTopicCatalog(String bootstrapServers, String clientId) {
        this(bootstrapServers, clientId, Map.of());
    }

    /** {@code overrides}: admin client properties over the defaults here (security settings). */
    public KafkaTopicCatalog(String bootstrapServers, String clientId, Map<String, Object> overrides) {
        Properties config = new Properties();
        config.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        config.put(AdminClientConfig.CLIENT_ID_CONFIG, clientId);
        config.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 5_000);
        config.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 10_000);
        config.putAll(overrides);
        this.admin = Admin.create(config);
    }

    /** The cached answer when it is fresh enough to use, else null (ask with {@link #exists}). */
    public Boolean knownExists(String topic) {
        Answer answer = answers.get(topic);
        if (answer == null) {
            return null;
        }
        long age = System.currentTimeMillis() - answer.checkedAt();
        if (answer.exists()) {
            if (age > EXISTS_TTL_MS) {
                ask(topic); // refresh in the background; until it answers the topic is taken to exist still
            }
            return true;
        }
        return age <= MISSING_TTL_MS ? false : null;
    }

    /** Whether the topic exists: at once from the cache, else when the brokers answered. */
    public CompletableFuture<Boolean> exists(String topic) {
        Boolean known = knownExists(topic);
        return known != null ? CompletableFuture.completedFuture(known) : ask(topic);
    }

    private CompletableFuture<Boolean> ask(String topic) {
        CompletableFuture<Boolean> created = new CompletableFuture<>();
        CompletableFuture<Boolean> pending = asking.putIfAbsent(topic, created);
        if (pending != null) {
            return pending;
        }
        admin.describeTopics(List.of(topic)).topicNameValues().get(topic).whenComplete((description, failure) -> {
            asking.remove(topic);
            Throwable cause = failure != null && failure.getCause() != null ? failure.getCause() : failure;
            if (failure == null || cause instanceof UnknownTopicOrPartitionException || failure instanceof UnknownTopicOrPartitionException) {
                if (answers.size() >= MAX_TOPICS) {
                    answers.clear();
                }
                boolean exists = failure == null;
                answers.put(topic, new Answer(exists, System.currentTimeMillis()));
                created.complete(exists);
            } else {
                created.completeExceptionally(failure);
            }
        });
        return created;
    }

    @Override
    public void close() {
        admin.close(Duration.ofSeconds(5));
    }
}
