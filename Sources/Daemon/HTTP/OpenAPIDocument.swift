enum OpenAPIDocument { static let yaml = "openapi: 3.0.3\n" }
