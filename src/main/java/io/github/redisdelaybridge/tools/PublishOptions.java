package io.github.redisdelaybridge.tools;

import io.github.redisdelaybridge.message.Broker;
import io.github.redisdelaybridge.message.HeaderNames;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/** bin/publish's command line. A connection option left out (null) is taken from the bridge's settings ({@link BrokerSettings}). */
final class PublishOptions {

    boolean help;
    /** The broker the message goes to. */
    String config;
    Broker broker = Broker.KAFKA;
    String bootstrap;
    String topic;
    String rabbitMq;
    String queue;
    String key;
    String body;
    long timeoutMs = 10_000;
    /** In order; a name may repeat (Kafka keeps every copy, the bridge reads the last). */
    final List<Map.Entry<String, String>> headers = new ArrayList<>();

    static PublishOptions parse(String[] args) {
        PublishOptions o = new PublishOptions();
        String brokerOption = null;
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            switch (arg) {
                case "--help", "-h" -> o.help = true;
                case "--config" -> o.config = value(args, ++i, arg);
                case "--broker" -> brokerOption = value(args, ++i, arg);
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
        o.broker = broker(brokerOption, o.rabbitMq != null);
        if (o.body == null) {
            o.body = "";
        }
        return o;
    }

    /** --broker, or RabbitMQ when --rabbitmq names its address (naming a RabbitMQ address says which broker is meant). */
    private static Broker broker(String option, boolean rabbitMqAddressGiven) {
        if (option == null) {
            return rabbitMqAddressGiven ? Broker.RABBITMQ : Broker.KAFKA;
        }
        Broker broker = Stream.of(Broker.values()).filter(b -> b.label().equals(option)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("--broker is kafka or rabbitmq, got '" + option + "'"));
        if (broker == Broker.KAFKA && rabbitMqAddressGiven) {
            throw new IllegalArgumentException("--rabbitmq publishes to RabbitMQ, not with --broker kafka");
        }
        return broker;
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
