package io.github.redisdelaybridge.admin;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.redisdelaybridge.message.DeadLetterReason;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The console's dead-letter filter offers every reason the bridge dead-letters with, so none is unreachable from it. */
class ConsoleReasonsTest {

    @Test
    void theConsoleListsEveryDeadLetterReason() throws IOException {
        String script = Files.readString(Path.of("src/main/resources/console/dead-letters.js"));
        Matcher list = Pattern.compile("const REASONS = \\[([^\\]]*)\\]").matcher(script);
        assertThat(list.find()).as("the REASONS list of console/dead-letters.js").isTrue();
        List<String> offered = new ArrayList<>();
        Matcher code = Pattern.compile("'([a-z-]+)'").matcher(list.group(1));
        while (code.find()) {
            offered.add(code.group(1));
        }
        assertThat(offered).containsExactlyInAnyOrderElementsOf(Arrays.stream(DeadLetterReason.values()).map(DeadLetterReason::code).toList());
    }
}
