package io.github.redisdelaybridge.e2e;

import static io.github.redisdelaybridge.testkit.Utf8.bytes;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.redisdelaybridge.testkit.AdminApiClient;
import io.github.redisdelaybridge.testkit.AdminApiClient.Response;
import io.github.redisdelaybridge.testkit.ConsoleInBrowser;
import io.github.redisdelaybridge.testkit.KafkaTestClient;
import io.github.redisdelaybridge.testkit.KafkaTestClient.Received;
import io.github.redisdelaybridge.testkit.TargetCollector;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The web console in a real headless Chromium (the system's: Debian's {@code chromium} and {@code chromium-driver},
 * nothing downloaded), against a running bridge with a token, real Redis and Kafka: the counts it shows are the API's,
 * the chart holds what falls due, a message is found, rescheduled and cancelled, and a dead letter replayed from the page
 * arrives on its Kafka target. Leaves a screenshot in target/console.png (the README shows a copy in docs/images/). Without Chromium the
 * test fails: it is part of the suite, not optional.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ConsoleBrowserTest {

    private static final String NAME = "console-ui";
    private static final String INBOUND = NAME + ".inbound";
    private static final String TARGET = NAME + ".target";
    private static final String PAUSED = NAME + ".paused";
    private static final String TOKEN = "console-token";
    /**
     * Where the screenshot goes: target/ by default, so that a test run leaves the checkout clean;
     * {@code -Dconsole.screenshot=docs/images/console.png} refreshes the README's copy.
     */
    private static final Path SCREENSHOT = Path.of(System.getProperty("console.screenshot", "target/console.png"));
    private static final Duration WAIT = Duration.ofSeconds(30);
    /** A static import of another of the console's modules: {@code from './name.js'}. */
    private static final Pattern IMPORT = Pattern.compile("from '\\./([a-z-]+\\.js)'");

    private static ConsoleInBrowser console;
    private static KafkaTestClient kafka;
    private static AdminApiClient api;
    private static TargetCollector delivered;
    private static WebDriver browser;
    private static String baseUri;

    @BeforeAll
    static void start() {
        console = ConsoleInBrowser.start(NAME, TOKEN, "1400,1700", INBOUND, TARGET, PAUSED, NAME + ".dlq");
        kafka = console.kafka;
        api = console.api;
        browser = console.browser;
        baseUri = console.baseUri;
        delivered = new TargetCollector(kafka, TARGET);
    }

    @AfterAll
    static void stop() throws InterruptedException {
        if (delivered != null) {
            delivered.close();
        }
        if (console != null) {
            console.close();
        }
    }

    @Test
    void anOperatorSeesTheBacklogFindsAMessageAndReplaysADeadLetterThatIsThenDelivered() throws IOException, InterruptedException {
        schedule("order-17-timeout", 3, "{\"order\": 17}", "trace", "t-17");
        schedule("order-18-timeout", 12, "{\"order\": 18}");
        schedule("order-19-timeout", 30, "{\"order\": 19}");
        schedule("order-20-timeout", 31, "{\"order\": 20}");
        schedule("order-21-timeout", 50, "{\"order\": 21}");
        schedule("order-22-reminder", 120, "{\"order\": 22}");
        kafka.sendAndWait(INBOUND, bytes("order-23"), bytes("replay me"), headers("x-delay", "soon", "x-target", "kafka:" + TARGET,
                "x-message-id", "order-23-timeout"));
        kafka.sendAndWait(INBOUND, bytes("order-24"), bytes("{\"order\": 24}"), headers("x-delay", "60000", "x-message-id", "order-24-timeout"));
        awaitTrue(() -> stats().at("/counts/pending").asLong() == 6 && stats().at("/counts/dead").asLong() == 2, "stored and dead-lettered");

        browser.get(baseUri + "/console");
        assertThat(browser.getCurrentUrl()).endsWith("/console/");
        browser.findElement(By.id("token")).sendKeys(TOKEN);
        browser.findElement(By.id("token-save")).click();

        // the counts are the API's
        JsonNode counts = stats().get("counts");
        for (String count : List.of("pending", "inFlight", "delivered", "cancelled", "dead")) {
            awaitAttribute(By.id("count-" + count), "data-value", counts.get(count).asText());
        }
        assertThat(text(By.id("count-pending"))).isEqualTo("6");

        // the chart holds what falls due within the hour, minute by minute (the page redraws it every 5 s: compare
        // each drawing with the API's answer of the moment until one matches, as a minute boundary may fall between)
        awaitAttribute(By.id("due-chart"), "data-total", "5");
        awaitTrue(() -> {
            JsonNode histogram = api.get("/api/stats/due-histogram").json();
            List<String> expected = new ArrayList<>();
            histogram.get("counts").forEach(count -> expected.add(count.asText()));
            return expected.size() == 60 && expected.equals(barCounts()) && histogram.get("later").asLong() == 1;
        }, "the chart's 60 bars are the API's counts");
        assertThat(text(By.id("due-later"))).isEqualTo("1");

        // dead letters by reason
        awaitTrue(() -> browser.findElements(By.cssSelector("#dead-letters tbody tr")).size() == 2, "both dead letters listed");
        assertThat(text(By.id("dead-summary"))).contains("invalid-delay 1", "missing-target 1");

        // a message: state, due time, target, headers; the body only on request
        find("order-17-timeout");
        assertThat(text(By.id("fact-target"))).isEqualTo("kafka:" + TARGET);
        assertThat(text(By.id("fact-due"))).contains("in 2m", "Z");
        assertThat(text(By.id("message-headers"))).contains("trace", "t-17");
        assertThat(browser.findElement(By.id("message-body")).isDisplayed()).isFalse();
        browser.findElement(By.id("show-body")).click();
        awaitTrue(() -> browser.findElement(By.id("message-body")).isDisplayed(), "body shown");
        assertThat(text(By.id("message-body"))).isEqualTo("{\"order\": 17}");

        // reschedule one, cancel another
        find("order-18-timeout");
        browser.findElement(By.id("reschedule-value")).sendKeys("PT40M");
        browser.findElement(By.id("reschedule")).click();
        awaitTrue(() -> text(By.id("status")).contains("Rescheduled order-18-timeout"), "rescheduled");
        long dueAt = api.get("/api/messages/order-18-timeout").json().get("dueAt").asLong();
        assertThat(dueAt).isBetween(System.currentTimeMillis() + 35 * 60_000L, System.currentTimeMillis() + 41 * 60_000L);

        find("order-19-timeout");
        browser.findElement(By.id("cancel")).click();
        browser.findElement(By.id("cancel-yes")).click();
        awaitTrue(() -> text(By.id("fact-state")).equals("cancelled"), "cancelled on the page");
        assertThat(api.get("/api/messages/order-19-timeout").json().get("state").asText()).isEqualTo("cancelled");

        // replay the dead letter whose only fault was its x-delay: it is delivered now, to its own target
        new Select(browser.findElement(By.id("dead-reason"))).selectByVisibleText("invalid-delay");
        awaitTrue(() -> browser.findElements(By.cssSelector("#dead-letters tbody tr")).size() == 1, "one invalid-delay dead letter");
        WebElement row = browser.findElement(By.cssSelector("#dead-letters tbody tr[data-id='order-23-timeout']"));
        row.findElement(By.cssSelector("button.replay")).click();
        awaitTrue(() -> row.getText().contains("replayed"), "replayed on the page");

        assertThat(delivered.awaitDistinct(1, Received::messageId, WAIT)).isEqualTo(1);
        Received arrived = delivered.received().get(0);
        assertThat(arrived.messageId()).isEqualTo("order-23-timeout");
        assertThat(new String(arrived.record().value(), StandardCharsets.UTF_8)).isEqualTo("replay me");

        // the page follows: one delivered, one dead letter fewer, and the lateness of that delivery
        awaitTrue(() -> stats().at("/counts/delivered").asLong() == 1, "delivered counted");
        awaitAttribute(By.id("count-delivered"), "data-value", "1");
        awaitAttribute(By.id("count-dead"), "data-value", "1");
        awaitAttribute(By.id("count-cancelled"), "data-value", "1");
        awaitTrue(() -> text(By.id("lateness-count")).equals("1"), "lateness of one delivery");
        assertThat(text(By.id("lateness-p50"))).matches("[0-9.]+ (ms|s)");

        // the picture for the README: the message found, the dead letters of every reason, the replay just done
        new Select(browser.findElement(By.id("dead-reason"))).selectByVisibleText("every reason");
        awaitTrue(() -> browser.findElements(By.cssSelector("#dead-letters tbody tr")).size() == 1, "the dead letter left listed");
        find("order-17-timeout");
        browser.findElement(By.id("show-body")).click();
        awaitTrue(() -> browser.findElement(By.id("message-body")).isDisplayed(), "body shown");
        Files.createDirectories(SCREENSHOT.getParent());
        Files.write(SCREENSHOT, ((TakesScreenshot) browser).getScreenshotAs(OutputType.BYTES));
    }

    @Test
    void theConsoleFilesComeFromTheJarWithoutATokenAndNothingElseDoes() {
        AdminApiClient anyone = new AdminApiClient(baseUri, null);

        Response page = anyone.get("/console/");
        Response styles = anyone.get("/console/console.css");

        assertThat(page.status()).isEqualTo(200);
        assertThat(page.raw().headers().firstValue("Content-Type")).hasValue("text/html; charset=utf-8");
        assertThat(page.raw().headers().firstValue("Content-Security-Policy")).hasValueSatisfying(policy ->
                assertThat(policy).contains("script-src 'self'", "connect-src 'self'", "frame-ancestors 'none'"));
        assertThat(page.text()).contains("<script type=\"module\" src=\"console.js\"").doesNotContain("http://", "https://");
        // the page's module and every module it imports, followed import by import: each is served, as JavaScript
        Set<String> modules = new TreeSet<>();
        Deque<String> toRead = new ArrayDeque<>(List.of("console.js"));
        while (!toRead.isEmpty()) {
            String module = toRead.pop();
            if (!modules.add(module)) {
                continue;
            }
            Response script = anyone.get("/console/" + module);
            assertThat(script.status()).as(module).isEqualTo(200);
            assertThat(script.raw().headers().firstValue("Content-Type")).as(module).hasValue("text/javascript; charset=utf-8");
            assertThat(script.text().replace("'http://www.w3.org/2000/svg'", "")).as(module + ": no HTML parsing, nothing from elsewhere")
                    .doesNotContain("innerHTML", "http://", "https://");
            Matcher imported = IMPORT.matcher(script.text());
            while (imported.find()) {
                toRead.push(imported.group(1));
            }
        }
        assertThat(modules).as("the console's modules").hasSizeGreaterThan(1);
        assertThat(styles.status()).isEqualTo(200);
        assertThat(anyone.get("/console").status()).as("redirected to /console/").isEqualTo(308);
        for (String other : List.of("/console/nope.js", "/console/..%2Fopenapi%2Fadmin-api.json", "/console/logback.xml")) {
            assertThat(anyone.get(other).status()).as(other).isEqualTo(404);
        }
    }

    /** Last: the messages it resumes are delivered, which the first test's counts must not see. */
    @Test
    @Order(Integer.MAX_VALUE)
    void anOperatorPausesATargetSeesItsMessagesParkedAndResumesIt() throws InterruptedException {
        String paused = "kafka:" + PAUSED;
        browser.get(baseUri + "/console/");
        browser.findElement(By.id("token")).sendKeys(TOKEN);
        browser.findElement(By.id("token-save")).click();
        browser.findElement(By.id("pause-target")).sendKeys(paused);
        browser.findElement(By.id("pause")).click();
        awaitTrue(() -> text(By.id("status")).contains(paused + " paused"), "paused");
        assertThat(api.get("/api/targets").json().at("/targets/0/state").asText()).isEqualTo("paused");

        try (TargetCollector resumed = new TargetCollector(kafka, PAUSED)) {
            for (int i = 0; i < 3; i++) {
                kafka.sendAndWait(INBOUND, null, bytes("paused " + i), headers("x-delay", "0", "x-target", paused, "x-message-id", "paused-" + i));
            }
            By row = By.cssSelector("#targets tbody tr[data-target='" + paused + "']");
            awaitTrue(() -> browser.findElement(row).getText().contains("paused") && parkedCell(row).equals("3"), "three parked on the page");
            awaitAttribute(By.id("count-parked"), "data-value", "3");
            assertThat(resumed.received()).as("nothing delivered while paused").isEmpty();

            browser.findElement(row).findElement(By.tagName("button")).click();
            awaitTrue(() -> text(By.id("status")).contains(paused + " resumed"), "resumed");
            assertThat(resumed.awaitDistinct(3, Received::messageId, WAIT)).isEqualTo(3);
            awaitTrue(() -> browser.findElements(row).isEmpty(), "the target gone from the panel once its messages are back");
        }
    }

    private static String parkedCell(By row) {
        return browser.findElement(row).findElements(By.tagName("td")).get(3).getText();
    }

    private static void schedule(String id, int minutes, String body, String... extraHeaders) {
        Map<String, String> headers = headers("x-delay", Long.toString(minutes * 60_000L), "x-target", "kafka:" + TARGET, "x-message-id", id);
        headers.putAll(headers(extraHeaders));
        kafka.sendAndWait(INBOUND, bytes(id), bytes(body), headers);
    }

    private static void find(String id) {
        WebElement input = browser.findElement(By.id("find-id"));
        input.clear();
        input.sendKeys(id);
        browser.findElement(By.id("find")).click();
        awaitTrue(() -> browser.findElements(By.id("fact-id")).size() == 1 && text(By.id("fact-id")).equals(id), "message " + id + " shown");
    }

    @SuppressWarnings("unchecked")
    private static List<String> barCounts() {
        return (List<String>) ((JavascriptExecutor) browser).executeScript(
                "return Array.from(document.querySelectorAll('#due-chart rect')).map(bar => bar.getAttribute('data-count'));");
    }

    private static String text(By by) {
        return browser.findElement(by).getText();
    }

    private static JsonNode stats() {
        Response response = api.get("/api/stats");
        assertThat(response.status()).isEqualTo(200);
        return response.json();
    }

    private static void awaitAttribute(By by, String attribute, String expected) {
        awaitTrue(() -> expected.equals(browser.findElement(by).getAttribute(attribute)),
                by + " " + attribute + " = " + expected + " (page status: " + statusText() + ")");
    }

    private static String statusText() {
        WebElement status = browser.findElement(By.id("status"));
        return status.isDisplayed() ? status.getText() : "none";
    }

    private static void awaitTrue(Supplier<Boolean> condition, String what) {
        new WebDriverWait(browser, WAIT).withMessage(what).ignoring(StaleElementReferenceException.class).until(driver -> condition.get());
    }

    private static Map<String, String> headers(String... namesAndValues) {
        Map<String, String> headers = new LinkedHashMap<>();
        for (int i = 0; i < namesAndValues.length; i += 2) {
            headers.put(namesAndValues[i], namesAndValues[i + 1]);
        }
        return headers;
    }
}
