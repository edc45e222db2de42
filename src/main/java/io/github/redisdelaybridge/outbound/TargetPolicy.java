package io.github.redisdelaybridge.outbound;

import io.github.redisdelaybridge.message.Excerpt;
import io.github.redisdelaybridge.message.Target;
import java.util.List;
import java.util.Set;

/**
 * Which targets producers may name. An allow-list of glob patterns over the target text
 * ({@code kafka:orders.*}, {@code rabbitmq:billing/*}); the bridge's own inbound channels (Kafka topics,
 * RabbitMQ queues through the default exchange, exchanges bound to them with any routing key) are never
 * allowed, so a typo cannot make the bridge feed itself; brokers this instance has no publisher for are
 * refused at ingest rather than at delivery time.
 */
public final class TargetPolicy {

    /** Characters of a target named in an explanation: every valid Kafka target whole, a long RabbitMQ one cut. */
    private static final int MAX_TARGET_CHARS = 200;

    private final List<Glob> allowed;
    private final List<Glob> inbound;
    private final Set<String> enabledBrokers;

    /**
     * {@code inboundGlobs}: targets that would reach an inbound channel, as globs like the allow-list; {@code enabledBrokers}:
     * the {@link io.github.redisdelaybridge.message.Broker#label() labels} of the brokers this instance publishes to.
     */
    public TargetPolicy(List<String> allowedGlobs, Set<String> inboundGlobs, Set<String> enabledBrokers) {
        this.allowed = allowedGlobs.stream().map(Glob::new).toList();
        this.inbound = inboundGlobs.stream().map(Glob::new).toList();
        this.enabledBrokers = Set.copyOf(enabledBrokers);
    }

    /** Null if allowed, else why not. */
    public String whyForbidden(Target target) {
        String uri = target.uri();
        if (inbound.stream().anyMatch(glob -> glob.matches(uri))) {
            return "target " + Excerpt.of(uri, MAX_TARGET_CHARS) + " is an inbound channel of this bridge: it would loop";
        }
        if (allowed.stream().noneMatch(glob -> glob.matches(uri))) {
            return "target " + Excerpt.of(uri, MAX_TARGET_CHARS) + " is not in the allow-list (bridge.targets.allowed)";
        }
        return null;
    }

    /**
     * For a target text that continues with whatever a message brings ({@code {routing-key}}): null if some continuation
     * of {@code prefix} may be allowed, else why none is. Each message's own target is still checked with {@link #whyForbidden}.
     */
    public String whyForbiddenWhateverFollows(String prefix) {
        if (inbound.stream().anyMatch(glob -> glob.matches(prefix + "*") || glob.matches(prefix))) {
            return "targets " + Excerpt.of(prefix, MAX_TARGET_CHARS) + "... include an inbound channel of this bridge: they would loop";
        }
        if (allowed.stream().noneMatch(glob -> glob.mayMatchSomethingStartingWith(prefix))) {
            return "no target " + Excerpt.of(prefix, MAX_TARGET_CHARS) + "... is in the allow-list (bridge.targets.allowed)";
        }
        return null;
    }

    /** Null if this instance can publish to the target's broker, else why not. */
    public String whyUnsupported(Target target) {
        String broker = target.broker().label();
        return enabledBrokers.contains(broker) ? null : "this bridge has no " + broker + " publisher configured";
    }
}
