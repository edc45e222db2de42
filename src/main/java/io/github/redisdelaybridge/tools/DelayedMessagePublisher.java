package io.github.redisdelaybridge.tools;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import io.github.redisdelaybridge.config.InvalidSettingsException;
import io.github.redisdelaybridge.config.RabbitMqConnections;
import io.github.redisdelaybridge.config.RabbitMqSettings;
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
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.slf4j.LoggerFactory;

/**
 * bin/publish: sends one delayed message to the bridge's inbound Kafka topic, or with {@code --broker rabbitmq} to
 * its inbound RabbitMQ queue (through the default exchange; {@code x-delay} as an AMQP integer, as with
 * the delayed-message plugin), and waits for the broker's acknowledgement. It connects as the bridge does, with the
 * bridge's settings ({@link BrokerSettings}: SASL, TLS, credentials, host lists), the command line's options over them.
 * A failure is one line on standard error and exit status 1, within {@code --timeout} (the broker's client libraries
 * are kept quiet: their reconnect warnings would bury it); bad options or settings exit 2. See {@link #USAGE}.
 */
public final class DelayedMessagePublisher {

    static final int SENT = 0;
    static final int NOT_SENT = 1;
    static final int BAD_OPTIONS = 2;

    static final String USAGE = """
            Usage: publish [options] [BODY]

            Publishes one delayed message to redis-delay-bridge's inbound Kafka topic (or, with --broker rabbitmq, to
            its inbound RabbitMQ queue) and waits until the broker acknowledged it. It connects as the bridge does: with
            the bridge's settings file, BRIDGE_* environment variables and *_FILE secrets (Kafka client properties for
            SASL and TLS, RabbitMQ credentials, virtual host, TLS and host list); the options below win over them.

              --delay MS              x-delay: deliver MS milliseconds after the bridge stored it
              --deliver-at TIME       x-deliver-at: epoch milliseconds or ISO-8601 (2026-12-01T10:00:00Z)
              --target TARGET         x-target: kafka:<topic>, rabbitmq:<exchange>/<routing-key>, rabbitmq:/<queue>
              --id ID                 x-message-id, to cancel or reschedule the message later
              --key KEY               the Kafka record key
              --header NAME=VALUE     another header, repeatable (--header x-control=cancel)
              --config FILE           the bridge's settings to connect with (default: config/application.properties
                                      of BRIDGE_HOME, else of the distribution this tool is part of)
              --broker BROKER         kafka (default) or rabbitmq
              --bootstrap HOST:PORT   Kafka bootstrap servers, comma-separated (default: bridge.kafka.bootstrap-servers)
              --topic TOPIC           the inbound topic (default: the first of bridge.kafka.inbound-topics)
              --rabbitmq ADDRESS      publish to RabbitMQ at HOST[:PORT][,HOST[:PORT]...] (instead of bridge.rabbitmq.host;
                                      the configured user and TLS) or amqp[s]://USER:PASSWORD@HOST:PORT/VHOST
              --queue QUEUE           the inbound queue (default: the first of bridge.rabbitmq.inbound-queues)
              --timeout MS            give up after MS milliseconds without an acknowledgement (default 10000)
              --help                  print this help

            BODY is the message body, as UTF-8 text (default: empty).
            Examples:
              publish --delay 5000 --target kafka:delay.outbound 'hello in 5 s'
              publish --broker rabbitmq --delay 5000 --target rabbitmq:/delay.outbound 'hello in 5 s'
              publish --id order-42-timeout --header x-control=cancel ''
            Exit status: 0 acknowledged by the broker, 1 not sent (one line on standard error), 2 bad options or settings.
            """;

    private DelayedMessagePublisher() {
    }

    public static void main(String[] args) {
        System.exit(run(args, System.getenv(), System.out, System.err));
    }

    /**
     * Runs the tool; returns the exit status.
     *
     * @param environment the environment variables: the bridge's setting overrides and secrets, BRIDGE_HOME
     */
    static int run(String[] args, Map<String, String> environment, PrintStream out, PrintStream err) {
        PublishOptions options;
        BrokerSettings settings;
        try {
            options = PublishOptions.parse(args);
            if (options.help) {
                out.print(USAGE);
                return SENT;
            }
            settings = BrokerSettings.resolve(options, environment, System.getProperties());
        } catch (InvalidSettingsException e) {
            e.problems().forEach(problem -> err.println("publish: configuration: " + problem));
            return BAD_OPTIONS;
        } catch (IllegalArgumentException e) {
            err.println("publish: " + e.getMessage() + " (see --help)");
            return BAD_OPTIONS;
        }
        quietClientLogging();
        try {
            out.println(options.broker == PublishOptions.Broker.RABBITMQ ? publishToRabbitMq(options, settings) : publishToKafka(options, settings));
            return SENT;
        } catch (InvalidSettingsException e) {
            e.problems().forEach(problem -> err.println("publish: configuration: " + problem));
            return BAD_OPTIONS;
        } catch (NotSent e) {
            err.println("publish: " + e.getMessage());
            return NOT_SENT;
        }
    }

    private static String publishToKafka(PublishOptions options, BrokerSettings settings) throws NotSent {
        String bootstrap = settings.kafkaBootstrap();
        requireReachable(bootstrap, "Kafka broker", options.timeoutMs);
        // the bridge's producer properties (security above all), then what this tool needs to fail fast and in order
        Map<String, Object> p = new LinkedHashMap<>(settings.kafkaProperties());
        p.put("bootstrap.servers", bootstrap);
        p.put("client.id", "bin-publish");
        p.put("acks", "all");
        p.put("linger.ms", "0");
        p.put("max.block.ms", Long.toString(options.timeoutMs));
        p.put("request.timeout.ms", Long.toString(options.timeoutMs));
        p.put("delivery.timeout.ms", Long.toString(options.timeoutMs));
        p.put("reconnect.backoff.max.ms", "1000");
        List<Header> headers = new ArrayList<>();
        options.headers.forEach(h -> headers.add(new RecordHeader(h.getKey(), h.getValue().getBytes(StandardCharsets.UTF_8))));
        KafkaProducer<byte[], byte[]> producer;
        try {
            producer = new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer());
        } catch (org.apache.kafka.common.KafkaException e) {
            // a truststore that cannot be read, a JAAS line that does not parse, ...: say why, not "Failed to construct"
            throw new NotSent("cannot set up a Kafka producer with the settings of " + settings.source() + ": " + causes(e));
        }
        try {
            RecordMetadata sent = producer.send(new ProducerRecord<>(settings.topic(), null,
                    options.key == null ? null : options.key.getBytes(StandardCharsets.UTF_8),
                    options.body.getBytes(StandardCharsets.UTF_8), headers)).get(options.timeoutMs + 1_000, TimeUnit.MILLISECONDS);
            return String.format("sent to %s/%d@%d", sent.topic(), sent.partition(), sent.offset());
        } catch (ExecutionException e) {
            throw new NotSent("Kafka at " + bootstrap + " did not take the message: " + oneLine(e.getCause()));
        } catch (TimeoutException e) {
            throw new NotSent("Kafka at " + bootstrap + " did not acknowledge within " + options.timeoutMs + " ms");
        } catch (org.apache.kafka.common.KafkaException e) {
            throw new NotSent("Kafka at " + bootstrap + ": " + oneLine(e));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new NotSent("interrupted");
        } finally {
            producer.close(Duration.ofSeconds(1));
        }
    }

    private static String publishToRabbitMq(PublishOptions options, BrokerSettings settings) throws NotSent {
        RabbitMqSettings rabbitMq = settings.rabbitMq();
        ConnectionFactory factory;
        try {
            factory = RabbitMqConnections.factory(rabbitMq);
        } catch (IllegalArgumentException e) {
            throw new InvalidSettingsException(settings.source() + ": " + e.getMessage()); // a TLS store that cannot be read
        }
        String where = rabbitMq.addresses().stream().map(a -> a.host() + ":" + a.port()).collect(Collectors.joining(","));
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
            connection = factory.newConnection(RabbitMqConnections.addresses(rabbitMq), "bin-publish");
        } catch (Exception e) {
            throw new NotSent(notConnected(where, rabbitMq, e));
        }
        // A broker under a resource alarm blocks the connection: publishing, confirms and even the close handshake
        // then wait forever. Fail in one line instead, and abort the connection rather than closing it politely.
        AtomicReference<String> blocked = new AtomicReference<>();
        connection.addBlockedListener(blocked::set, () -> blocked.set(null));
        where = connection.getAddress().getHostAddress() + ":" + connection.getPort();
        boolean sent = false;
        try {
            Channel channel = connection.createChannel();
            AtomicReference<String> returned = new AtomicReference<>();
            channel.addReturnListener(r -> returned.set(r.getReplyText() + " (" + r.getReplyCode() + ")"));
            channel.confirmSelect();
            channel.basicPublish("", settings.queue(), true, new AMQP.BasicProperties.Builder()
                    .headers(table).deliveryMode(2).contentType("text/plain").build(), options.body.getBytes(StandardCharsets.UTF_8));
            if (!channel.waitForConfirms(options.timeoutMs)) {
                throw new NotSent("RabbitMQ at " + where + " refused the message (nack)");
            }
            if (returned.get() != null) {
                throw new NotSent("RabbitMQ at " + where + " returned the message: " + returned.get() + ": no queue '" + settings.queue() + "'?");
            }
            sent = true;
            return "sent to RabbitMQ queue " + settings.queue();
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

    /** Nobody listening is not the same failure as a TLS handshake that fails, or a broker refusing the login or the virtual host. */
    private static String notConnected(String where, RabbitMqSettings rabbitMq, Exception e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof java.net.ConnectException || t instanceof java.net.SocketTimeoutException
                    || t instanceof java.net.UnknownHostException || t instanceof java.net.NoRouteToHostException) {
                return "no RabbitMQ broker answers at " + where + " (" + oneLine(e) + ")";
            }
        }
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof javax.net.ssl.SSLException) {
                return "RabbitMQ at " + where + ": the TLS handshake failed (" + causes(e) + ")";
            }
        }
        return "RabbitMQ at " + where + " did not let user '" + rabbitMq.username() + "' into virtual host '" + rabbitMq.virtualHost()
                + "'" + (rabbitMq.tls() == null ? "" : " over TLS") + ": " + causes(e);
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

    /** The messages of {@code e} and its causes, in one line, each once. */
    private static String causes(Throwable e) {
        List<String> messages = new ArrayList<>();
        for (Throwable t = e; t != null && messages.size() < 5; t = t.getCause() == t ? null : t.getCause()) {
            String text = oneLine(t);
            if (t.getMessage() != null && messages.stream().noneMatch(m -> m.contains(text))) {
                messages.add(text);
            }
        }
        return messages.isEmpty() ? oneLine(e) : String.join(": ", messages);
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
}
