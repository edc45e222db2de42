package io.github.redisdelaybridge.dispatch;

import io.github.redisdelaybridge.message.Target;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;

/**
 * Where publish calls run: one thread per broker, never the dispatch loop. A broker call can block (a Kafka
 * producer waiting for buffer space or metadata, a RabbitMQ connection under a resource alarm); on its own
 * lane it holds up only the messages for that broker, while the loop goes on claiming and the other broker's
 * lane goes on publishing. Within a lane messages are published in due order: those handed over due at once in the
 * order given, those claimed ahead when their due time comes ({@link ReleaseClock}), so a lane's thread is the one
 * thread that wakes at a due time, and it publishes.
 */
final class PublishLanes implements AutoCloseable {

    private final ScheduledExecutorService kafka = lane("publish-kafka");
    private final ScheduledExecutorService rabbitMq = lane("publish-rabbitmq");

    ScheduledExecutorService laneOf(Target target) {
        return switch (target.broker()) {
            case KAFKA -> kafka;
            case RABBITMQ -> rabbitMq;
        };
    }

    /** One thread; tasks due at the same instant run in the order they were given; held ones still run after shutdown. */
    private static ScheduledExecutorService lane(String name) {
        return new ScheduledThreadPoolExecutor(1, r -> {
            Thread thread = new Thread(r, name);
            thread.setDaemon(true);
            return thread;
        });
    }

    @Override
    public void close() {
        kafka.shutdown();
        rabbitMq.shutdown();
    }
}
