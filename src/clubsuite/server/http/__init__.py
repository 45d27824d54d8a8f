"""The web application: FastAPI app and its routes, the guard and forwarding middleware, pages, metrics, uvicorn."""
