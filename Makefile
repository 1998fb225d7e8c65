# Convenience targets; the scripts do the work (and install what is missing).
.PHONY: demo test bench build clean
demo:
	scripts/run-demo
test:
	scripts/run-tests
bench:
	scripts/run-bench
build:
	scripts/bootstrap && swift build
clean:
	rm -rf .build .build-*
