#include "ghostpost/discourse/module.h"

#include "ghostpost/discourse/discourse.h"
#include "ghostpost/discourse/settings.h"

namespace ghostpost::bot {

namespace {

class ConfiguredDiscourse : public ConfiguredPlatform {
public:
    explicit ConfiguredDiscourse(DiscourseSettings settings) : settings_(std::move(settings)) {}

    std::vector<std::string> secrets() const override { return {settings_.api_key}; }

    // The username is configured; the first poll tells whether the key works. The lane's sleep
    // between polls lets SIGTERM end a quiet wait at once.
    PlatformStart start(const StartContext& context) const override {
        DiscourseOptions options;
        options.base_url = settings_.base_url;
        options.username = settings_.username;
        options.api_key = settings_.api_key;
        options.categories.insert(settings_.categories.begin(), settings_.categories.end());
        options.request_timeout = settings_.request_timeout;
        options.pacing.per_chat = settings_.per_topic_interval;
        options.sleep = context.sleep;
        return {std::make_unique<DiscoursePlatform>(context.http, std::move(options)),
                settings_.username, settings_.poll_interval};
    }

private:
    DiscourseSettings settings_;
};

std::unique_ptr<ConfiguredPlatform> read(const config::PlatformTable& table,
                                         const config::Environment& environment) {
    return std::make_unique<ConfiguredDiscourse>(read_discourse_settings(table, environment));
}

} // namespace

const PlatformModule discourse_module{"discourse", "", "Discourse", read, true};

} // namespace ghostpost::bot
