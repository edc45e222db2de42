package io.github.redisdelaybridge.e2e;

import static io.github.redisdelaybridge.testkit.Utf8.bytes;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.redisdelaybridge.testkit.AdminApiClient;
import io.github.redisdelaybridge.testkit.ConsoleInBrowser;
import io.github.redisdelaybridge.testkit.KafkaTestClient;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The console's pending-messages table in a real headless Chromium (the system's {@code chromium} and
 * {@code chromium-driver}), against a running bridge with a token, real Redis and Kafka: it lists the backlog page by
 * page in the API's order, filters by due range and target glob, opens a message in the message panel, and cancels and
 * reschedules messages from their rows. Leaves a picture of the table in target/console-pending.png
 * ({@code -Dconsole.pending.screenshot=docs/images/console-pending.png} refreshes the docs' copy).
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class PendingTableBrowserTest {

    private static final String NAME = "pending-table";
    private static final String INBOUND = NAME + ".inbound";
    private static final String TOKEN = "table-token";
    private static final Path SCREENSHOT = Path.of(System.getProperty("console.pending.screenshot", "target/console-pending.png"));
    private static final Duration WAIT = Duration.ofSeconds(30);
    /** The first message falls due two hours from now, one more each minute: nothing falls due while the test runs. */
    private static final long BASE = (System.currentTimeMillis() + 2 * 3_600_000L) / 60_000 * 60_000;
    private static final int MESSAGES = 45;

    private static ConsoleInBrowser console;
    private static KafkaTestClient kafka;
    private static AdminApiClient api;
    private static WebDriver browser;
    private static String baseUri;

    @BeforeAll
    static void start() {
        console = ConsoleInBrowser.start(NAME, TOKEN, "1400,1200", INBOUND, NAME + ".dlq");
        kafka = console.kafka;
        api = console.api;
        browser = console.browser;
        baseUri = console.baseUri;
        // order-00 ... order-44 a minute apart: two in three for the orders topics (eu, us), one in three for audit;
        // order-01, -04 and -07 in group batch-1, order-40 ... -44 in group batch-2
        for (int i = 0; i < MESSAGES; i++) {
            String topic = i % 3 == 2 ? ".audit" : i % 3 == 0 ? ".orders.eu" : ".orders.us";
            Map<String, String> headers = new HashMap<>(Map.of("x-deliver-at", Long.toString(BASE + i * 60_000L),
                    "x-target", "kafka:" + NAME + topic, "x-message-id", id(i)));
            if (i < 9 && i % 3 == 1) {
                headers.put("x-group", "batch-1");
            } else if (i >= 40) {
                headers.put("x-group", "batch-2");
            }
            kafka.send(INBOUND, bytes("k" + i), bytes("{\"order\": " + i + "}"), headers);
        }
        kafka.flush();
    }

    @AfterAll
    static void stop() {
        if (console != null) {
            console.close();
        }
    }

    @Test
    void anOperatorFiltersPagesOpensCancelsAndReschedulesPendingMessages() throws IOException {
        long deadline = System.currentTimeMillis() + WAIT.toMillis();
        while (api.get("/api/stats").json().at("/counts/pending").asLong() < MESSAGES && System.currentTimeMillis() < deadline) {
            sleep(100);
        }
        browser.get(baseUri + "/console/");
        browser.findElement(By.id("token")).sendKeys(TOKEN);
        browser.findElement(By.id("token-save")).click();

        // the whole backlog, 20 a page, in due order; Next and Previous
        awaitRows(ids(0, 20));
        assertThat(text(By.id("pending-totals"))).isEqualTo("(45 pending)");
        assertThat(text(By.id("pending-page"))).isEqualTo("1-20 of 45");
        assertThat(browser.findElement(By.id("pending-previous")).isEnabled()).isFalse();
        click(By.id("pending-next"));
        awaitRows(ids(20, 40));
        assertThat(text(By.id("pending-page"))).isEqualTo("21-40 of 45");
        click(By.id("pending-next"));
        awaitRows(ids(40, 45));
        assertThat(browser.findElement(By.id("pending-next")).isEnabled()).isFalse();
        click(By.id("pending-previous"));
        awaitRows(ids(20, 40));
        click(By.id("pending-previous"));
        awaitRows(ids(0, 20));

        // a target glob: the orders topics only (30 of 45), pages as the API gives them
        type(By.id("pending-target"), "kafka:" + NAME + ".orders.*");
        click(By.id("pending-filter"));
        List<String> ordersFirst = apiIds("target=" + AdminApiClient.encode("kafka:" + NAME + ".orders.*"));
        assertThat(ordersFirst).hasSize(20).allMatch(id -> number(id) % 3 != 2);
        awaitRows(ordersFirst);
        assertThat(text(By.id("pending-totals"))).isEqualTo("(30 matching of 45 pending)");
        click(By.id("pending-next"));
        awaitRows(List.of("order-30", "order-31", "order-33", "order-34", "order-36", "order-37", "order-39", "order-40", "order-42", "order-43"));
        assertThat(text(By.id("pending-page"))).isEqualTo("21-30 of 30");

        // and a due range: [BASE + 10 min, BASE + 20 min) of the orders topics, given as ISO-8601 and as epoch ms
        type(By.id("pending-due-after"), Instant.ofEpochMilli(BASE + 10 * 60_000L).toString());
        type(By.id("pending-due-before"), Long.toString(BASE + 20 * 60_000L));
        click(By.id("pending-filter"));
        awaitRows(List.of("order-10", "order-12", "order-13", "order-15", "order-16", "order-18", "order-19"));
        assertThat(text(By.id("pending-totals"))).isEqualTo("(7 matching of 10 in the due range)");

        // open one: the message panel shows it
        row("order-12").findElement(By.cssSelector("a.open")).click();
        awaitTrue(() -> browser.findElements(By.id("fact-id")).size() == 1 && text(By.id("fact-id")).equals("order-12"), "order-12 opened");
        assertThat(text(By.id("fact-state"))).isEqualTo("pending");
        assertThat(text(By.id("fact-target"))).isEqualTo("kafka:" + NAME + ".orders.eu");

        // cancel one, after the confirmation in its row
        row("order-13").findElement(By.cssSelector("button.cancel")).click();
        row("order-13").findElement(By.cssSelector("button.cancel-yes")).click();
        awaitTrue(() -> text(By.id("status")).equals("Cancelled order-13: it will not be delivered."), "cancel said");
        assertThat(row("order-13").getAttribute("class")).contains("done");
        assertThat(row("order-13").getText()).contains("cancelled");
        assertThat(api.get("/api/messages/order-13").json().get("state").asText()).isEqualTo("cancelled");

        // reschedule another to three hours from now: out of the range once reloaded
        row("order-15").findElement(By.cssSelector("button.reschedule")).click();
        row("order-15").findElement(By.cssSelector("input.due-input")).sendKeys("PT3H");
        row("order-15").findElement(By.cssSelector("button.reschedule-ok")).click();
        awaitTrue(() -> text(By.id("status")).startsWith("Rescheduled order-15: due "), "reschedule said");
        long dueAt = api.get("/api/messages/order-15").json().get("dueAt").asLong();
        assertThat(dueAt).isBetween(System.currentTimeMillis() + 170 * 60_000L, System.currentTimeMillis() + 181 * 60_000L);
        assertThat(row("order-15").getText()).contains("now due");

        click(By.id("pending-reload"));
        awaitRows(List.of("order-10", "order-12", "order-16", "order-18", "order-19"));
        assertThat(text(By.id("pending-totals"))).isEqualTo("(5 matching of 8 in the due range)");

        // a refusal is said, not swallowed: a due range the API refuses
        type(By.id("pending-due-before"), "tomorrow");
        click(By.id("pending-filter"));
        awaitTrue(() -> text(By.id("status")).startsWith("List pending messages: dueBefore"), "the API's reason shown");

        // the picture for the docs: the orders topics, one message opened
        browser.findElement(By.id("pending-due-after")).clear();
        browser.findElement(By.id("pending-due-before")).clear();
        click(By.id("pending-filter"));
        awaitTrue(() -> text(By.id("pending-page")).equals("1-20 of 29"), "the orders topics listed again, order-15 among them");
        assertThat(text(By.id("pending-totals"))).isEqualTo("(29 matching of 44 pending)");
        row("order-12").findElement(By.cssSelector("button.reschedule")).click();
        row("order-12").findElement(By.cssSelector("input.due-input")).sendKeys("PT45M");
        WebElement table = browser.findElement(By.id("pending-section"));
        ((JavascriptExecutor) browser).executeScript("arguments[0].scrollIntoView(true);", table);
        Files.createDirectories(SCREENSHOT.toAbsolutePath().getParent());
        Files.write(SCREENSHOT, table.getScreenshotAs(OutputType.BYTES));
        assertThat(row("order-04").findElement(By.cssSelector("td.group")).getText()).isEqualTo("batch-1");
        assertThat(row("order-03").findElement(By.cssSelector("td.group")).getText()).isEqualTo("-");
        assertThat(row("order-03").findElements(By.cssSelector("button.cancel-group"))).as("no group, no group actions").isEmpty();

        // a group: its messages only, whatever their target; then the whole group cancelled from one of its rows, after
        // the dry run's count
        browser.findElement(By.id("pending-target")).clear();
        type(By.id("pending-group"), "batch-1");
        click(By.id("pending-filter"));
        awaitRows(List.of("order-01", "order-04", "order-07"));
        assertThat(text(By.id("pending-totals"))).isEqualTo("(3 matching of 44 pending)");
        row("order-04").findElement(By.cssSelector("button.cancel-group")).click();
        awaitTrue(() -> row("order-04").getText().contains("Never deliver the 3 pending of group batch-1?"), "the dry run's count asked");
        assertThat(api.get("/api/messages/order-01").json().get("state").asText()).as("a dry run changes nothing").isEqualTo("pending");
        row("order-04").findElement(By.cssSelector("button.group-yes")).click();
        awaitTrue(() -> text(By.id("status")).startsWith("Cancelled 3 of group batch-1."), "group cancel said");
        for (String id : List.of("order-01", "order-04", "order-07")) {
            assertThat(api.get("/api/messages/" + id).json().get("state").asText()).as(id).isEqualTo("cancelled");
        }
        assertThat(api.get("/api/messages/order-40").json().get("state").asText()).as("another group").isEqualTo("pending");
        click(By.id("pending-reload"));
        awaitTrue(() -> text(By.id("pending-totals")).equals("(0 matching of 41 pending)"), "the group gone from the table");

        // a group's link filters by it
        browser.findElement(By.id("pending-group")).clear();
        type(By.id("pending-due-after"), Long.toString(BASE + 38 * 60_000L));
        type(By.id("pending-due-before"), Long.toString(BASE + 45 * 60_000L)); // order-15 was moved after them
        click(By.id("pending-filter"));
        awaitRows(ids(38, 45));
        row("order-42").findElement(By.cssSelector("a.group-filter")).click();
        awaitRows(List.of("order-40", "order-41", "order-42", "order-43", "order-44"));
        assertThat(browser.findElement(By.id("pending-group")).getAttribute("value")).isEqualTo("batch-2");
    }

    private static List<String> apiIds(String query) {
        JsonNode page = api.get("/api/messages?limit=20&" + query).json();
        List<String> ids = new ArrayList<>();
        page.get("messages").forEach(message -> ids.add(message.get("id").asText()));
        return ids;
    }

    private static String id(int i) {
        return String.format("order-%02d", i);
    }

    private static int number(String id) {
        return Integer.parseInt(id.substring("order-".length()));
    }

    private static List<String> ids(int from, int to) {
        List<String> ids = new ArrayList<>();
        for (int i = from; i < to; i++) {
            ids.add(id(i));
        }
        return ids;
    }

    private static WebElement row(String id) {
        return browser.findElement(By.cssSelector("#pending tbody tr[data-id='" + id + "']"));
    }

    private static List<String> shownIds() {
        return browser.findElements(By.cssSelector("#pending tbody tr[data-id]")).stream().map(row -> row.getAttribute("data-id")).toList();
    }

    private static void awaitRows(List<String> expected) {
        awaitTrue(() -> shownIds().equals(expected), "rows " + expected);
    }

    private static void click(By by) {
        browser.findElement(by).click();
    }

    private static void type(By by, String text) {
        WebElement input = browser.findElement(by);
        input.clear();
        input.sendKeys(text);
    }

    private static String text(By by) {
        return browser.findElement(by).getText();
    }

    private static void awaitTrue(Supplier<Boolean> condition, String what) {
        new WebDriverWait(browser, WAIT).withMessage(() -> what + "; rows " + shownIds() + "; page: " + text(By.id("pending-page")) + " "
                        + text(By.id("pending-totals")) + "; status: " + statusText())
                .ignoring(StaleElementReferenceException.class).until(driver -> condition.get());
    }

    private static String statusText() {
        WebElement status = browser.findElement(By.id("status"));
        return status.isDisplayed() ? status.getText() : "none";
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
