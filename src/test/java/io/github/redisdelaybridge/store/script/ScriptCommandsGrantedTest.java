package io.github.redisdelaybridge.store.script;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every command a Lua script calls is granted by the least-privilege ACL of docs/security.md. A script that calls one
 * more command works for every user of the default user and fails, for those who followed the docs, only on the path that
 * calls it, which an end-to-end test may never take (RedisTlsAclTest delivers one message): this reads them all.
 */
class ScriptCommandsGrantedTest {

    private static final Pattern CALL = Pattern.compile("redis\\.p?call\\(\\s*'([A-Za-z]+)'");
    private static final Pattern ACL = Pattern.compile("ACL SETUSER bridge on >PASSWORD resetchannels ~rdb:\\* -@all ([^\n]+)");

    @Test
    void everyCommandAScriptCallsIsInTheDocumentedAcl() throws IOException {
        Set<String> called = new TreeSet<>();
        try (Stream<Path> files = Files.walk(Path.of("src/main/resources/lua"))) {
            for (Path file : files.filter(f -> f.toString().endsWith(".lua")).toList()) {
                Matcher call = CALL.matcher(Files.readString(file));
                while (call.find()) {
                    called.add(call.group(1).toLowerCase());
                }
            }
        }
        Matcher acl = ACL.matcher(Files.readString(Path.of("docs/security.md")));
        assertThat(acl.find()).as("the ACL SETUSER line in docs/security.md").isTrue();
        Set<String> granted = new TreeSet<>();
        for (String rule : acl.group(1).strip().split(" ")) {
            if (rule.startsWith("+")) {
                granted.add(rule.substring(1));
            }
        }
        assertThat(called).as("commands the scripts call").isNotEmpty();
        assertThat(granted).as("docs/security.md's least-privilege ACL grants every command a script calls").containsAll(called);
    }
}
