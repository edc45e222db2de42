package io.github.redisdelaybridge.testkit;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import com.rabbitmq.client.GetResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A plain RabbitMQ client for tests, on the broker this machine runs (127.0.0.1:5672, guest/guest):
 * declares and deletes queues and exchanges, publishes with confirms, reads queues, and runs
 * {@code rabbitmqctl} for what only the broker can tell or do (unacked counts, closing connections).
 */
public final class RabbitMqTestClient implements AutoCloseable {

    public static final String HOST = "127.0.0.1";
    public static final int PORT = 5672;

    /** A message as a test consumer got it, with the local time it was received. */
    public record Received(AMQP.BasicProperties properties, byte[] body, long receivedAtMs) {

        public Object header(String name) {
            return properties.getHeaders() == null ? null : properties.getHeaders().get(name);
        }

        /** A header's value as text (long strings and strings alike), or null. */
        public String headerText(String name) {
            Object value = header(name);
            return value == null ? null : value instanceof byte[] bytes ? new String(bytes, StandardCharsets.UTF_8) : value.toString();
        }
    }

    private final String virtualHost;
    private final Connection connection;
    private final Channel channel;
    private final List<String> declaredQueues = new ArrayList<>();
    private final List<String> declaredExchanges = new ArrayList<>();

    public RabbitMqTestClient() {
        this("/");
    }

    public RabbitMqTestClient(String virtualHost) {
        this.virtualHost = virtualHost;
        ConnectionFactory factory = new ConnectionFactory();
        factory.setHost(HOST);
        factory.setPort(PORT);
        factory.setVirtualHost(virtualHost);
        try {
            connection = factory.newConnection("redis-delay-bridge-test");
            channel = connection.createChannel();
            channel.confirmSelect();
        } catch (Exception e) {
            throw new IllegalStateException("RabbitMQ on " + HOST + ":" + PORT + " is needed for this test", e);
        }
    }

    /** Declares a durable queue (emptied first if it exists); deleted again on {@link #close()}. */
    public void declareQueue(String queue) {
        declareQueue(queue, null);
    }

    /** Declares a durable queue with arguments (x-max-length, ...); deleted again on {@link #close()}. */
    public void declareQueue(String queue, Map<String, Object> arguments) {
        io(() -> {
            channel.queueDeclare(queue, true, false, false, arguments);
            channel.queuePurge(queue);
        });
        declaredQueues.add(queue);
    }

    /** Declares a durable queue and leaves it (for queues that go with their virtual host). */
    public void ensureQueue(String queue) {
        io(() -> channel.queueDeclare(queue, true, false, false, null));
    }

    /** Declares a durable exchange; deleted again on {@link #close()}. */
    public void declareExchange(String exchange, String type) {
        io(() -> channel.exchangeDeclare(exchange, type, true));
        declaredExchanges.add(exchange);
    }

    public void bind(String queue, String exchange, String routingKey) {
        io(() -> channel.queueBind(queue, exchange, routingKey));
    }

    /** Deletes a queue this test did not declare itself (e.g. one the bridge declared). */
    public void deleteQueue(String queue) {
        io(() -> channel.queueDelete(queue));
    }

    public void deleteExchange(String exchange) {
        io(() -> channel.exchangeDelete(exchange));
    }

    /** Publishes and waits for the broker's confirm. */
    public void publish(String exchange, String routingKey, AMQP.BasicProperties properties, byte[] body) {
        io(() -> {
            channel.basicPublish(exchange, routingKey, properties, body);
            channel.waitForConfirmsOrDie(10_000);
        });
    }

    /** Publishes without waiting for the confirm; {@link #waitForConfirms()} waits for all of them. */
    public void publishNoWait(String exchange, String routingKey, AMQP.BasicProperties properties, byte[] body) {
        io(() -> channel.basicPublish(exchange, routingKey, properties, body));
    }

    public void waitForConfirms() {
        io(() -> channel.waitForConfirmsOrDie(30_000));
    }

    /** Publishes to a queue through the default exchange, with headers only. */
    public void publishToQueue(String queue, Map<String, Object> headers, byte[] body) {
        publish("", queue, new AMQP.BasicProperties.Builder().headers(headers).deliveryMode(2).build(), body);
    }

    /** Takes messages off a queue (acking them) until {@code count} arrived or the timeout passed, then for {@code settle} more. */
    public List<Received> consume(String queue, int count, Duration timeout, Duration settle) {
        List<Received> received = new ArrayList<>();
        long deadline = System.currentTimeMillis() + timeout.toMillis();
        io(() -> {
            while (received.size() < count && System.currentTimeMillis() < deadline) {
                takeAvailable(queue, received);
            }
            long settleUntil = System.currentTimeMillis() + settle.toMillis();
            while (System.currentTimeMillis() < settleUntil) {
                takeAvailable(queue, received);
            }
        });
        return received;
    }

    public List<Received> consume(String queue, int count, Duration timeout) {
        return consume(queue, count, timeout, Duration.ZERO);
    }

    private void takeAvailable(String queue, List<Received> received) throws IOException, InterruptedException {
        GetResponse response = channel.basicGet(queue, true);
        if (response == null) {
            Thread.sleep(10);
            return;
        }
        received.add(new Received(response.getProps(), response.getBody(), System.currentTimeMillis()));
    }

    /** Messages ready and unacknowledged in a queue, as the broker reports them. */
    public long[] readyAndUnacked(String queue) {
        String listing = rabbitmqctl("list_queues", "-q", "--no-table-headers", "-p", virtualHost, "name", "messages_ready",
                "messages_unacknowledged");
        for (String line : listing.split("\n")) {
            String[] columns = line.trim().split("\\s+");
            if (columns.length == 3 && columns[0].equals(queue)) {
                return new long[] {Long.parseLong(columns[1]), Long.parseLong(columns[2])};
            }
        }
        throw new IllegalStateException("queue " + queue + " not listed by rabbitmqctl: " + listing);
    }

    /** Messages ready in a queue now, as a passive declare answers (no statistics interval in between). */
    public int readyNow(String queue) {
        int[] count = {0};
        io(() -> count[0] = channel.queueDeclarePassive(queue).getMessageCount());
        return count[0];
    }

    /** Messages in a queue, ready and unacknowledged together. */
    public int readyAndUnackedTotal(String queue) {
        long[] counts = readyAndUnacked(queue);
        return (int) (counts[0] + counts[1]);
    }

    /** The client-provided names of the connections open in a virtual host. */
    public static String connectionNames(String virtualHost) {
        return rabbitmqctl("list_connections", "-q", "--no-table-headers", "-p", virtualHost, "client_properties");
    }

    /** Runs rabbitmqctl and returns its standard output; fails the test if it fails. */
    public static String rabbitmqctl(String... args) {
        List<String> command = new ArrayList<>();
        command.add("rabbitmqctl");
        command.addAll(List.of(args));
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
                throw new IllegalStateException(command + " failed: " + output);
            }
            return output;
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() {
        try {
            for (String queue : declaredQueues) {
                channel.queueDelete(queue);
            }
            for (String exchange : declaredExchanges) {
                channel.exchangeDelete(exchange);
            }
            connection.close();
        } catch (Exception e) {
            throw new IllegalStateException("could not clean up RabbitMQ", e);
        }
    }

    private interface Io {
        void run() throws Exception;
    }

    private static void io(Io action) {
        try {
            action.run();
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
