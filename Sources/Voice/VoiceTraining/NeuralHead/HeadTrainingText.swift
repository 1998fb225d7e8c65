import WakeRuntime

/// The text a head hears as "not the phrase": everyday sentences (none of them the corpus
/// generator's), short greetings that start like many wake phrases, and the phrase's confusables.
enum HeadTrainingText {
    /// Ordinary speech, on top of ``WakeWordClassifierTrainer/sentences``.
    static let sentences = WakeWordClassifierTrainer.sentences + [
        "we could stop for lunch at the little place by the harbour",
        "the dentist called to move my appointment to friday",
        "I can never remember where I parked the car",
        "turn the heating down a little before you go to bed",
        "the cat knocked a vase off the shelf this morning",
        "they opened a new swimming pool near the station",
        "my sunglasses broke when I sat on them",
        "he wiped his glasses and looked at the map again",
        "the glass door at the front of the shop was locked",
        "she teaches two evening classes at the college",
        "a pair of reading glasses was left on the train",
        "the grass was still wet from the morning dew",
        "hey, wait for me at the corner",
        "hey you, did you drop this wallet",
        "hey mom, what's for dinner tonight",
        "hey, nice to meet you, I'm Sam",
        "hey siri, hey google, hey alexa, all of them listen",
        "okay, let's get going then",
        "hi there, can I help you find something",
        "say that again, I didn't hear you",
        "they gave us a lift to the airport",
        "play the next song on the list please",
        "the lasses from the village sang at the fair",
        "Douglas fixed the fence behind the garage",
        "classic films are showing at the cinema this month",
        "the gas station on the highway is open all night",
        "pass the glasses to the people at the end of the table",
        "these lenses need cleaning before the exam",
        "we have plenty of time before the show starts",
        "the weather forecast says sunshine all week",
        "I'll have a cup of tea with milk, no sugar",
        "the laptop fan is making a strange noise",
        "put the leftovers in the fridge for tomorrow",
        "our street is closed for repairs until june",
        "the puppy chewed one of my slippers",
        "can we move the call to half past ten",
        "his office is on the third floor, second door on the left",
        "the band played until well after midnight",
        "she wrote the numbers on the back of an envelope",
        "my knees hurt after the long walk down the hill",
        "the orange juice is in the door of the fridge",
        "they painted the fence bright green last summer",
        "the alarm went off twice during the night",
        "it took forever to find a parking space",
        "the report is due at the end of the month",
        "a glassblower showed us how vases are made",
        "the waiter brought two glasses of water",
        "he lost his glasses somewhere on the beach",
        "the teacher said the class would start late",
        "hey look, the rain has stopped",
        "hey, are those your keys on the table",
        "hey guys, dinner is ready",
        "heavy bags are not allowed in the cabin",
        "hazy skies are expected over the weekend",
        "the highway was quiet early in the morning",
        "grab your jacket, it's cold outside",
        "the gallery has a new exhibition about glass",
        "the lessons start again after the holidays",
        "I guess we'll have to wait and see",
        "the class photo is on the wall in the hallway",
    ]

    /// Greetings and near misses that share the phrase's first word or sound: `hey` + other words.
    static func nearMisses(of phrase: String) -> [String] {
        let words = phrase.split(separator: " ").map(String.init)
        guard words.count > 1, let first = words.first else { return [] }
        let others = ["there", "you", "guys", "buddy", "everyone", "look", "listen", "wait", "Gladys", "Glen",
                      "Douglas", "Jess", "Lassie", "glass", "class", "grasses", "lasses", "classic", "galaxy", "gas"]
        let rest = words.dropFirst().joined(separator: " ")
        // The last words after other words, as in everyday speech ("reading glasses", "the glasses").
        let modifiers = ["reading", "wine", "safety", "these", "those", "old", "new", "your", "his", "her", "our",
                         "sun", "dark", "pretty", "lovely", "many", "only", "any"]
        return others.filter { $0.lowercased() != rest }.map { first + " " + $0 }
            + modifiers.filter { $0 != first.lowercased() }.map { $0 + " " + rest }
            + [rest, first, first + " " + first]
    }

    /// Everything a head should refuse, for `phrase`.
    static func confusables(of phrase: String) -> [String] {
        let normalized = phrase.lowercased()
        return Array(Set(WakeWordClassifierTrainer.confusables(of: phrase) + nearMisses(of: phrase))
            .filter { $0.lowercased() != normalized }).sorted()
    }
}
