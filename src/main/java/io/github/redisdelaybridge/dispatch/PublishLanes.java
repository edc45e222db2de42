package io.github.redisdelaybridge.dispatch;

import io.github.redisdelaybridge.message.Target;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * Where publish calls run: one thread per broker, never the dispatch loop. A broker call can block (a Kafka
 * producer waiting for buffer space or metadata, a RabbitMQ connection under a resource alarm); on its own
 * lane it holds up only the messages for that broker, while the loop goes on claiming and the other broker's
 * lane goes on publishing. Within a lane messages are published in the order they were handed over (due order).
 */
final class PublishLanes implements AutoCloseable {

    private final ExecutorService kafka = lane("publish-kafka");
    private final ExecutorService rabbitMq = lane("publish-rabbitmq");

    ExecutorService laneOf(Target target) {
        return target instanceof Target.Kafka ? kafka : rabbitMq;
    }

    private static ExecutorService lane(String name) {
        return Executors.newSingleThreadExecutor(r -> {
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
