package io.github.redisdelaybridge.tools;

import io.github.redisdelaybridge.config.InvalidSettingsException;
import java.io.PrintStream;
import java.util.List;
import java.util.Map;
import org.slf4j.LoggerFactory;

/**
 * bin/publish: sends one delayed message to the bridge's inbound Kafka topic ({@link KafkaSender}), or with
 * {@code --broker rabbitmq} to its inbound RabbitMQ queue ({@link RabbitMqSender}), and waits for the broker's
 * acknowledgement. It connects as the bridge does, with the
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
            out.println(switch (options.broker) {
                case KAFKA -> KafkaSender.send(options, settings);
                case RABBITMQ -> RabbitMqSender.send(options, settings);
            });
            return SENT;
        } catch (InvalidSettingsException e) {
            e.problems().forEach(problem -> err.println("publish: configuration: " + problem));
            return BAD_OPTIONS;
        } catch (NotSent e) {
            err.println("publish: " + e.getMessage());
            return NOT_SENT;
        }
    }

    /** The Kafka and RabbitMQ clients log every reconnect attempt; the tool reports the outcome itself. */
    private static void quietClientLogging() {
        for (String name : List.of("org.apache.kafka", "com.rabbitmq")) {
            if (LoggerFactory.getLogger(name) instanceof ch.qos.logback.classic.Logger logger) {
                logger.setLevel(ch.qos.logback.classic.Level.OFF);
            }
        }
    }
}
