package io.github.redisdelaybridge.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.rabbitmq.client.AMQP;
import io.github.redisdelaybridge.testkit.BridgeInstance;
import io.github.redisdelaybridge.testkit.LocalRedis;
import io.github.redisdelaybridge.testkit.RabbitMqTestClient;
import io.github.redisdelaybridge.testkit.RoutedDeliveries;
import io.github.redisdelaybridge.testkit.RoutedDeliveries.Delivery;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * docs/migrating-from-delayed-message-exchange.md, run: its topology (the blocks marked {@code <!-- test: ... -->}), its
 * setting, its producer and the messages of its table go through a real RabbitMQ, Redis and bridge, and each consumer
 * queue gets exactly the messages the guide lists for it, in that order, each with its routing key and properties and
 * none before its delay. The guide's own claims are checked too: the producer changes only the exchange name, the
 * topology only the exchange's type, and the lists follow from the bindings and the delays.
 */
class MigrationGuideTest {

    private static final Path GUIDE = Path.of("docs/migrating-from-delayed-message-exchange.md");
    private static final String NAME = "migration-guide";
    private static final Pattern MARKED = Pattern.compile("<!-- test: (\\S+) -->\\n(```\\w*\\n(.*?)```|((?:\\|[^\\n]*\\n)+))", Pattern.DOTALL);
    private static final Pattern PUBLISH = Pattern.compile("basicPublish\\(\"([^\"]+)\", \"([^\"]+)\"");

    /** One row of the guide's table of published messages. */
    private record Published(String id, String routingKey, long delayMs, String body) {
    }

    /** A binding of the guide's topology. */
    private record Binding(String exchange, String queue, String pattern) {
    }

    @Test
    void theGuidesExampleRunsAsWritten() throws Exception {
        Map<String, String> blocks = markedBlocks();
        List<List<String>> before = rabbitmqadminCommands(blocks.get("before-topology"));
        List<List<String>> after = rabbitmqadminCommands(blocks.get("after-topology"));
        Map<String, String> guideSettings = properties(blocks.get("settings"));
        String delayedExchanges = guideSettings.get("bridge.rabbitmq.delayed-exchanges");
        String delayedExchange = delayedExchanges.substring(0, delayedExchanges.indexOf('=')).strip();
        String targetExchange = delayedExchanges.substring(delayedExchanges.indexOf('=') + 1).strip();
        List<Binding> bindings = bindings(after);
        List<Published> published = publishedTable(blocks.get("published"));

        assertThat(withoutExchangeType(before)).as("the topology changes only the exchange's type").isEqualTo(withoutExchangeType(after));
        assertThat(before.get(0)).contains("name=" + targetExchange, "type=x-delayed-message");
        assertThat(after.get(0)).contains("name=" + targetExchange, "type=topic");
        assertThat(blocks.get("after-producer")).as("the producer changes only the exchange name")
                .isEqualTo(blocks.get("before-producer").replace("\"" + targetExchange + "\"", "\"" + delayedExchange + "\""));
        Matcher publish = PUBLISH.matcher(blocks.get("after-producer"));
        assertThat(publish.find()).isTrue();
        assertThat(publish.group(1)).isEqualTo(delayedExchange);
        assertThat(blocks.get("after-producer")).contains(".contentType(\"application/json\")", "Map.of(\"x-delay\", ");
        for (Binding binding : bindings) {
            assertThat(expectedFor(binding.queue(), bindings, published)).as("the guide's list for %s follows from the bindings and delays",
                    binding.queue()).isEqualTo(table(blocks.get(binding.queue())));
        }

        LocalRedis.deleteKeys("test-" + NAME);
        Map<String, RoutedDeliveries> consumers = new LinkedHashMap<>();
        try (RabbitMqTestClient rabbit = new RabbitMqTestClient()) {
            try {
                declare(rabbit, after);
                bindings.forEach(b -> consumers.put(b.queue(), new RoutedDeliveries(b.queue())));
                Map<String, String> settings = BridgeInstance.withRabbitMq(BridgeInstance.settings(NAME, LocalRedis.URI), NAME);
                settings.putAll(guideSettings);
                try (BridgeInstance bridge = BridgeInstance.start(settings)) {
                    Map<String, Long> sentAt = new LinkedHashMap<>();
                    for (Published message : published) {
                        sentAt.put(message.id(), System.currentTimeMillis());
                        rabbit.publish(delayedExchange, message.routingKey(), new AMQP.BasicProperties.Builder()
                                .headers(Map.of("x-delay", (int) message.delayMs())).contentType("application/json").messageId(message.id())
                                .build(), message.body().getBytes(StandardCharsets.UTF_8));
                    }
                    checkWhatWaits(bridge, blocks.get("check"));

                    for (Binding binding : bindings) {
                        List<List<String>> expected = table(blocks.get(binding.queue()));
                        List<Delivery> got = consumers.get(binding.queue()).await(expected.size(), Duration.ofSeconds(30), Duration.ofSeconds(1));
                        assertThat(got).extracting(d -> List.of(d.properties().getMessageId(), d.routingKey()))
                                .as("%s: exactly its messages, in due order", binding.queue()).isEqualTo(expected);
                        for (Delivery delivery : got) {
                            Published sent = published.stream().filter(p -> p.id().equals(delivery.properties().getMessageId())).findFirst().orElseThrow();
                            assertThat(delivery.receivedAtMs() - sentAt.get(sent.id())).as("%s never early", sent.id())
                                    .isGreaterThanOrEqualTo(sent.delayMs());
                            assertThat(delivery.exchange()).isEqualTo(targetExchange);
                            assertThat(delivery.bodyText()).isEqualTo(sent.body());
                            assertThat(delivery.properties().getContentType()).isEqualTo("application/json");
                            assertThat(delivery.properties().getHeaders()).containsOnlyKeys("x-message-id", "x-delay-due-at");
                            assertThat(delivery.headerText("x-message-id")).isEqualTo(sent.id());
                        }
                    }
                }
            } finally {
                consumers.values().forEach(RoutedDeliveries::close);
                rabbit.deleteQueue("redis-delay-bridge.delayed." + delayedExchange);
                rabbit.deleteExchange(delayedExchange);
                rabbit.deleteQueue(NAME + ".inbound");
                rabbit.deleteQueue(NAME + ".dlq");
                bindings.forEach(b -> rabbit.deleteQueue(b.queue()));
                rabbit.deleteExchange(targetExchange);
            }
        }
    }

    /** The guide's admin API query, while its messages wait: the pending ones of that target, in due order. */
    private static void checkWhatWaits(BridgeInstance bridge, String block) throws InterruptedException {
        Matcher query = Pattern.compile("\\$API(/messages\\?target=rabbitmq:[^\"]+/([^\"/]+))\"").matcher(block);
        assertThat(query.find()).as("the guide's check: %s", block).isTrue();
        String answer = "";
        long deadline = System.currentTimeMillis() + 2_000;
        while (!answer.contains("order-") && System.currentTimeMillis() < deadline) {
            answer = bridge.httpGet("/api" + query.group(1));
            Thread.sleep(50);
        }
        assertThat(answer).startsWith("200 ").contains("\"target\":\"rabbitmq:shop.orders/" + query.group(2) + "\"");
    }

    private static Map<String, String> markedBlocks() throws IOException {
        Map<String, String> blocks = new LinkedHashMap<>();
        Matcher marked = MARKED.matcher(Files.readString(GUIDE));
        while (marked.find()) {
            blocks.put(marked.group(1), marked.group(3) != null ? marked.group(3) : marked.group(4));
        }
        assertThat(blocks).containsKeys("before-topology", "after-topology", "settings", "before-producer", "after-producer", "published", "check");
        return blocks;
    }

    /** {@code rabbitmqadmin declare <what> k=v ...}, one a line, as lists of words (single quotes removed). */
    private static List<List<String>> rabbitmqadminCommands(String block) {
        List<List<String>> commands = new ArrayList<>();
        for (String line : block.strip().split("\n")) {
            List<String> words = new ArrayList<>();
            Matcher word = Pattern.compile("([^\\s']*'[^']*'|\\S+)").matcher(line.strip());
            while (word.find()) {
                words.add(word.group(1).replace("'", ""));
            }
            assertThat(words.subList(0, 2)).as(line).containsExactly("rabbitmqadmin", "declare");
            commands.add(words.subList(2, words.size()));
        }
        return commands;
    }

    private static List<List<String>> withoutExchangeType(List<List<String>> commands) {
        return commands.stream().map(c -> c.stream().filter(w -> !w.startsWith("type=") && !w.startsWith("arguments=")).toList()).toList();
    }

    private static String value(List<String> command, String name) {
        return command.stream().filter(w -> w.startsWith(name + "=")).map(w -> w.substring(name.length() + 1)).findFirst().orElseThrow();
    }

    private static List<Binding> bindings(List<List<String>> commands) {
        return commands.stream().filter(c -> c.get(0).equals("binding"))
                .map(c -> new Binding(value(c, "source"), value(c, "destination"), value(c, "routing_key"))).toList();
    }

    private static void declare(RabbitMqTestClient rabbit, List<List<String>> commands) {
        for (List<String> command : commands) {
            switch (command.get(0)) {
                case "exchange" -> rabbit.declareExchange(value(command, "name"), value(command, "type"));
                case "queue" -> rabbit.declareQueue(value(command, "name"));
                case "binding" -> rabbit.bind(value(command, "destination"), value(command, "source"), value(command, "routing_key"));
                default -> throw new IllegalArgumentException("unknown declaration " + command);
            }
        }
    }

    private static Map<String, String> properties(String block) {
        Map<String, String> settings = new LinkedHashMap<>();
        for (String line : block.strip().split("\n")) {
            settings.put(line.substring(0, line.indexOf('=')).strip(), line.substring(line.indexOf('=') + 1).strip());
        }
        return settings;
    }

    /** A markdown table's rows (header and rule left out), cells stripped of spaces and backquotes. */
    private static List<List<String>> table(String block) {
        List<List<String>> rows = new ArrayList<>();
        String[] lines = block.strip().split("\n");
        for (int i = 2; i < lines.length; i++) {
            String line = lines[i].strip();
            List<String> cells = new ArrayList<>();
            for (String cell : line.substring(1, line.length() - 1).split("\\|")) {
                String text = cell.strip();
                cells.add(text.startsWith("`") && text.endsWith("`") ? text.substring(1, text.length() - 1) : text);
            }
            rows.add(cells);
        }
        return rows;
    }

    private static List<Published> publishedTable(String block) {
        return table(block).stream().map(r -> new Published(r.get(0), r.get(1), Long.parseLong(r.get(2)), r.get(3))).toList();
    }

    /** What a queue gets: the messages whose routing key its binding matches, in due order. */
    private static List<List<String>> expectedFor(String queue, List<Binding> bindings, List<Published> published) {
        Binding binding = bindings.stream().filter(b -> b.queue().equals(queue)).findFirst().orElseThrow();
        return published.stream().filter(p -> topicMatches(binding.pattern(), p.routingKey()))
                .sorted(Comparator.comparingLong(Published::delayMs)).map(p -> List.of(p.id(), p.routingKey())).toList();
    }

    /** A topic exchange's rule: {@code *} one word, {@code #} zero or more. */
    private static boolean topicMatches(String pattern, String key) {
        return words(pattern.split("\\."), 0, key.split("\\."), 0);
    }

    private static boolean words(String[] pattern, int p, String[] key, int k) {
        if (p == pattern.length) {
            return k == key.length;
        }
        if (pattern[p].equals("#")) {
            for (int skip = k; skip <= key.length; skip++) {
                if (words(pattern, p + 1, key, skip)) {
                    return true;
                }
            }
            return false;
        }
        return k < key.length && (pattern[p].equals("*") || pattern[p].equals(key[k])) && words(pattern, p + 1, key, k + 1);
    }
}
