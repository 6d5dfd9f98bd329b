#include "ghostpost/discourse/settings.h"

#include "ghostpost/config/table_reader.h"

namespace ghostpost::bot {

DiscourseSettings read_discourse_settings(const config::PlatformTable& table,
                                          const config::Environment& environment) {
    const config::TableReader reader(table,
                                     {"base_url", "username", "categories", "key_file",
                                      "poll_interval", "request_timeout", "per_topic_interval_ms"});
    DiscourseSettings discourse;
    const auto url = config::read_http_url(reader, "base_url");
    if (!url)
        reader.fail_missing("base_url");
    discourse.base_url = *url;
    auto name = reader.string("username");
    if (!name)
        reader.fail_missing("username");
    discourse.username = name->starts_with("@") ? name->substr(1) : *name;
    if (discourse.username.empty())
        reader.fail_at(reader.node("username"), "username", "must not be empty");
    if (const toml::node* node = reader.table().get("categories")) {
        const toml::array* array = node->as_array();
        if (array == nullptr)
            reader.fail_at(*node, "categories", "must be an array of category ids");
        for (const toml::node& element : *array) {
            if (!element.is_integer() || *element.value<std::int64_t>() < 1)
                reader.fail_at(element, "categories", "must be an array of category ids");
            discourse.categories.push_back(*element.value<std::int64_t>());
        }
    }
    config::read_seconds(reader, "poll_interval", 1, 300, discourse.poll_interval);
    config::read_seconds(reader, "request_timeout", 1, 300, discourse.request_timeout);
    if (auto millis = reader.integer("per_topic_interval_ms")) {
        if (*millis < 0 || *millis > 60000)
            reader.fail_at(reader.node("per_topic_interval_ms"), "per_topic_interval_ms",
                           "must be between 0 and 60000");
        discourse.per_topic_interval = std::chrono::milliseconds(*millis);
    }
    discourse.api_key = config::read_secret(reader, environment, "GHOSTPOST_DISCOURSE_API_KEY",
                                            "key_file", "API key", true)
                            .value;
    return discourse;
}

} // namespace ghostpost::bot
