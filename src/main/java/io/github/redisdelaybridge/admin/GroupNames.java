package io.github.redisdelaybridge.admin;

import io.github.redisdelaybridge.message.HeaderNames;
import java.nio.charset.StandardCharsets;
import org.apache.camel.Exchange;

/** The group a {@code /api/groups/{group}} request names, held to the rules of the {@code x-group} header. */
final class GroupNames {

    private GroupNames() {
    }

    static String group(Exchange exchange) {
        String group = ApiRequests.param(exchange, "group");
        if (group == null || group.isEmpty() || group.getBytes(StandardCharsets.UTF_8).length > HeaderNames.MAX_GROUP_BYTES) {
            throw ApiException.badRequest("a group is 1 to " + HeaderNames.MAX_GROUP_BYTES + " bytes of UTF-8 text, as in x-group");
        }
        for (int i = 0; i < group.length(); i++) {
            if (Character.isISOControl(group.charAt(i))) {
                throw ApiException.badRequest("a group is printable text; this one holds a control character at character " + i);
            }
        }
        return group;
    }
}
