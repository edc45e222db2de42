package io.github.redisdelaybridge.tools;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import io.github.redisdelaybridge.message.HeaderNames;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.slf4j.LoggerFactory;

/**
 * bin/publish: sends one delayed message to the bridge's inbound Kafka topic, or with {@code --rabbitmq} to
 * its inbound RabbitMQ queue (through the default exchange; {@code x-delay} as an AMQP integer, as with
 * the delayed-message plugin), and waits for the broker's acknowledgement. A failure is one line on
 * standard error and exit status 1, within {@code --timeout} (the broker's client libraries are kept quiet:
 * their reconnect warnings would bury it). See {@link #USAGE}.
 */
public final class DelayedMessagePublisher {

    static final int SENT = 0;
    static final int NOT_SENT = 1;
    static final int BAD_OPTIONS = 2;

    static final String USAGE = """
            Usage: publish [options] [BODY]

            Publishes one delayed message to redis-delay-bridge's inbound Kafka topic (or, with --rabbitmq, to
            its inbound RabbitMQ queue) and waits until the broker acknowledged it.

              --delay MS              x-delay: deliver MS milliseconds after the bridge stored it
              --deliver-at TIME       x-deliver-at: epoch milliseconds or ISO-8601 (2026-12-01T10:00:00Z)
              --target TARGET         x-target: kafka:<topic>, rabbitmq:<exchange>/<routing-key>, rabbitmq:/<queue>
              --id ID                 x-message-id, to cancel or reschedule the message later
              --key KEY               the Kafka record key
              --header NAME=VALUE     another header, repeatable (--header x-control=cancel)
              --bootstrap HOST:PORT   Kafka bootstrap servers, comma-separated (default 127.0.0.1:9092)
              --topic TOPIC           the inbound topic (default delay.inbound)
              --rabbitmq ADDRESS      publish to RabbitMQ instead: HOST[:PORT] (guest/guest) or
                                      amqp://USER:PASSWORD@HOST:PORT/VHOST
              --queue QUEUE           the inbound queue (default delay.inbound)
              --timeout MS            give up after MS milliseconds without an acknowledgement (default 10000)
              --help                  print this help

            BODY is the message body, as UTF-8 text (default: empty).
            Examples:
              publish --delay 5000 --target kafka:delay.outbound 'hello in 5 s'
              publish --id order-42-timeout --header x-control=cancel ''
            Exit status: 0 acknowledged by the broker, 1 not sent (one line on standard error), 2 bad options.
            """;

    private DelayedMessagePublisher() {
    }

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    /** Runs the tool; returns the exit status. */
    static int run(String[] args, PrintStream out, PrintStream err) {
        Options options;
        try {
            options = Options.parse(args);
        } catch (IllegalArgumentException e) {
            err.println("publish: " + e.getMessage() + " (see --help)");
            return BAD_OPTIONS;
        }
        if (options.help) {
            out.print(USAGE);
            return SENT;
        }
        quietClientLogging();
        try {
            out.println(options.rabbitMq != null ? publishToRabbitMq(options) : publishToKafka(options));
            return SENT;
        } catch (NotSent e) {
            err.println("publish: " + e.getMessage());
            return NOT_SENT;
        }
    }

    private static String publishToKafka(Options options) throws NotSent {
        requireReachable(options.bootstrap, "Kafka broker", options.timeoutMs);
        Properties p = new Properties();
        p.put("bootstrap.servers", options.bootstrap);
        p.put("client.id", "bin-publish");
        p.put("acks", "all");
        p.put("linger.ms", "0");
        p.put("max.block.ms", Long.toString(options.timeoutMs));
        p.put("request.timeout.ms", Long.toString(options.timeoutMs));
        p.put("delivery.timeout.ms", Long.toString(options.timeoutMs));
        p.put("reconnect.backoff.max.ms", "1000");
        List<Header> headers = new ArrayList<>();
        options.headers.forEach(h -> headers.add(new RecordHeader(h.getKey(), h.getValue().getBytes(StandardCharsets.UTF_8))));
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer())) {
            try {
                RecordMetadata sent = producer.send(new ProducerRecord<>(options.topic, null,
                        options.key == null ? null : options.key.getBytes(StandardCharsets.UTF_8),
                        options.body.getBytes(StandardCharsets.UTF_8), headers)).get(options.timeoutMs + 1_000, TimeUnit.MILLISECONDS);
                return String.format("sent to %s/%d@%d", sent.topic(), sent.partition(), sent.offset());
            } catch (ExecutionException e) {
                throw new NotSent("Kafka at " + options.bootstrap + " did not take the message: " + oneLine(e.getCause()));
            } catch (TimeoutException e) {
                throw new NotSent("Kafka at " + options.bootstrap + " did not acknowledge within " + options.timeoutMs + " ms");
            } catch (org.apache.kafka.common.KafkaException e) {
                throw new NotSent("Kafka at " + options.bootstrap + ": " + oneLine(e));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new NotSent("interrupted");
            } finally {
                producer.close(Duration.ofSeconds(1));
            }
        }
    }

    private static String publishToRabbitMq(Options options) throws NotSent {
        ConnectionFactory factory = new ConnectionFactory();
        String address = options.rabbitMq;
        try {
            if (address.startsWith("amqp://") || address.startsWith("amqps://")) {
                factory.setUri(address);
            } else {
                int colon = address.lastIndexOf(':');
                factory.setHost(colon < 0 ? address : address.substring(0, colon));
                factory.setPort(colon < 0 ? ConnectionFactory.DEFAULT_AMQP_PORT : Integer.parseInt(address.substring(colon + 1)));
            }
        } catch (Exception e) {
            throw new NotSent("--rabbitmq " + address + " is not HOST[:PORT] or an amqp:// URI: " + oneLine(e));
        }
        String where = factory.getHost() + ":" + factory.getPort();
        int timeout = (int) Math.min(Integer.MAX_VALUE, options.timeoutMs);
        factory.setConnectionTimeout(timeout);
        factory.setHandshakeTimeout(timeout);
        factory.setAutomaticRecoveryEnabled(false);
        factory.setChannelRpcTimeout(timeout);
        Map<String, Object> table = new LinkedHashMap<>();
        options.headers.forEach(h -> table.put(h.getKey(),
                h.getKey().equals(HeaderNames.DELAY) && h.getValue().matches("[0-9]{1,9}") ? Integer.valueOf(h.getValue()) : h.getValue()));
        Connection connection;
        try {
            connection = factory.newConnection("bin-publish");
        } catch (Exception e) {
            throw new NotSent("no RabbitMQ broker answers at " + where + " (" + oneLine(e) + ")");
        }
        // A broker under a resource alarm blocks the connection: publishing, confirms and even the close handshake
        // then wait forever. Fail in one line instead, and abort the connection rather than closing it politely.
        AtomicReference<String> blocked = new AtomicReference<>();
        connection.addBlockedListener(blocked::set, () -> blocked.set(null));
        boolean sent = false;
        try {
            Channel channel = connection.createChannel();
            AtomicReference<String> returned = new AtomicReference<>();
            channel.addReturnListener(r -> returned.set(r.getReplyText() + " (" + r.getReplyCode() + ")"));
            channel.confirmSelect();
            channel.basicPublish("", options.queue, true, new AMQP.BasicProperties.Builder()
                    .headers(table).deliveryMode(2).contentType("text/plain").build(), options.body.getBytes(StandardCharsets.UTF_8));
            if (!channel.waitForConfirms(options.timeoutMs)) {
                throw new NotSent("RabbitMQ at " + where + " refused the message (nack)");
            }
            if (returned.get() != null) {
                throw new NotSent("RabbitMQ at " + where + " returned the message: " + returned.get() + ": no queue '" + options.queue + "'?");
            }
            sent = true;
            return "sent to RabbitMQ queue " + options.queue;
        } catch (NotSent e) {
            throw e;
        } catch (TimeoutException e) {
            String reason = blocked.get();
            throw new NotSent("RabbitMQ at " + where + " did not confirm within " + options.timeoutMs + " ms"
                    + (reason == null ? "" : " (it blocks publishers: " + reason + ")"));
        } catch (IOException | RuntimeException e) {
            throw new NotSent("RabbitMQ at " + where + ": " + oneLine(e));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new NotSent("interrupted");
        } finally {
            if (sent) {
                closeWithin(connection, timeout);
            } else {
                connection.abort(timeout);
            }
        }
    }

    /** Closes politely, but never waits longer than the timeout for the broker's answer. */
    private static void closeWithin(Connection connection, int timeoutMs) {
        try {
            connection.close(timeoutMs);
        } catch (IOException | RuntimeException e) {
            connection.abort(timeoutMs);
        }
    }

    /** Fails at once when no server of the list accepts a connection, instead of a client retrying until its timeout. */
    private static void requireReachable(String servers, String what, long timeoutMs) throws NotSent {
        String lastProblem = "";
        for (String server : servers.split(",")) {
            String hostAndPort = server.strip();
            int colon = hostAndPort.lastIndexOf(':');
            if (colon < 0) {
                throw new NotSent("'" + hostAndPort + "' is not HOST:PORT");
            }
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress(hostAndPort.substring(0, colon).replace("[", "").replace("]", ""),
                        Integer.parseInt(hostAndPort.substring(colon + 1))), (int) Math.min(timeoutMs, 5_000));
                return;
            } catch (IOException | IllegalArgumentException e) {
                lastProblem = oneLine(e);
            }
        }
        throw new NotSent("no " + what + " answers at " + servers + " (" + lastProblem + ")");
    }

    /** The Kafka and RabbitMQ clients log every reconnect attempt; the tool reports the outcome itself. */
    private static void quietClientLogging() {
        for (String name : List.of("org.apache.kafka", "com.rabbitmq")) {
            if (LoggerFactory.getLogger(name) instanceof ch.qos.logback.classic.Logger logger) {
                logger.setLevel(ch.qos.logback.classic.Level.OFF);
            }
        }
    }

    private static String oneLine(Throwable e) {
        Throwable shown = e;
        while (shown.getMessage() == null && shown.getCause() != null) {
            shown = shown.getCause();
        }
        String text = shown.getMessage() == null ? shown.getClass().getSimpleName() : shown.getMessage();
        return text.replaceAll("\\s+", " ").strip();
    }

    private static final class NotSent extends Exception {
        NotSent(String message) {
            super(message);
        }
    }

    /** The command line. */
    static final class Options {
        boolean help;
        String bootstrap = "127.0.0.1:9092";
        String topic = "delay.inbound";
        String rabbitMq;
        String queue = "delay.inbound";
        String key;
        String body;
        long timeoutMs = 10_000;
        /** In order; a name may repeat (Kafka keeps every copy, the bridge reads the last). */
        final List<Map.Entry<String, String>> headers = new ArrayList<>();

        static Options parse(String[] args) {
            Options o = new Options();
            for (int i = 0; i < args.length; i++) {
                String arg = args[i];
                switch (arg) {
                    case "--help", "-h" -> o.help = true;
                    case "--bootstrap" -> o.bootstrap = value(args, ++i, arg);
                    case "--topic" -> o.topic = value(args, ++i, arg);
                    case "--rabbitmq" -> o.rabbitMq = value(args, ++i, arg);
                    case "--queue" -> o.queue = value(args, ++i, arg);
                    case "--key" -> o.key = value(args, ++i, arg);
                    case "--delay" -> o.header(HeaderNames.DELAY, value(args, ++i, arg));
                    case "--deliver-at" -> o.header(HeaderNames.DELIVER_AT, value(args, ++i, arg));
                    case "--target" -> o.header(HeaderNames.TARGET, value(args, ++i, arg));
                    case "--id" -> o.header(HeaderNames.MESSAGE_ID, value(args, ++i, arg));
                    case "--timeout" -> {
                        String text = value(args, ++i, arg);
                        try {
                            o.timeoutMs = Long.parseLong(text);
                        } catch (NumberFormatException e) {
                            o.timeoutMs = 0;
                        }
                        if (o.timeoutMs < 1) {
                            throw new IllegalArgumentException("--timeout needs a positive number of milliseconds, got '" + text + "'");
                        }
                    }
                    case "--header" -> {
                        String pair = value(args, ++i, arg);
                        int eq = pair.indexOf('=');
                        if (eq < 1) {
                            throw new IllegalArgumentException("--header needs NAME=VALUE, got '" + pair + "'");
                        }
                        o.header(pair.substring(0, eq), pair.substring(eq + 1));
                    }
                    default -> {
                        if (arg.startsWith("--")) {
                            throw new IllegalArgumentException("unknown option '" + arg + "'");
                        }
                        if (o.body != null) {
                            throw new IllegalArgumentException("one body only, got '" + o.body + "' and '" + arg + "' (quote a body with spaces)");
                        }
                        o.body = arg;
                    }
                }
            }
            if (o.body == null) {
                o.body = "";
            }
            return o;
        }

        private void header(String name, String value) {
            headers.add(Map.entry(name, value));
        }

        private static String value(String[] args, int i, String option) {
            if (i >= args.length) {
                throw new IllegalArgumentException(option + " needs a value");
            }
            return args[i];
        }
    }
}
